// The recipient's page (root, no account): parcel summary, status, last known position and the
// delivery QR, refreshed by a small script polling the JSON twin before the code expires.
import { API_PREFIX } from '../../lib/urls';
import { createRoute, z } from '@hono/zod-openapi';
import { html, raw } from 'hono/html';
import { createRouter } from '../../env';
import { cspNonce } from '../../middleware/content-security-policy';
import { RecipientTokenParams } from './handover.schemas';
import { recipientView, type RecipientView } from './handover.service';

const STATUS_LABELS: Record<string, string> = {
  PENDING_PAYMENT: 'Awaiting payment',
  PAID: 'Paid, awaiting the carrier',
  CONFIRMED: 'Confirmed, awaiting hand-over',
  DEPOSITED: 'With the carrier',
  IN_TRANSIT: 'On its way',
  DELIVERED: 'Delivered',
  DISPUTED: 'Under review',
  REFUNDED: 'Refunded',
};

const htmlResponse = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });

const STYLE = `body{font-family:system-ui,sans-serif;margin:0;padding:16px;max-width:480px;margin-inline:auto;color:#1b1b1b}
h1{font-size:1.3rem}dl{display:grid;grid-template-columns:auto 1fr;gap:4px 12px}dt{color:#666}
#delivery-qr svg{width:100%;max-width:320px;height:auto;display:block;margin:auto}.muted{color:#666;font-size:.9rem}`;

function positionText(p: RecipientView['lastPosition']) {
  return p ? `${p.lat.toFixed(5)}, ${p.lng.toFixed(5)} at ${p.recordedAt}` : 'Not yet known';
}

function page(token: string, v: RecipientView, nonce: string) {
  // The token only travels back to our own JSON twin; the SVG comes from uqr (no user input in it).
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<title>Parcel ${v.reservationNumber}</title>
<style>${raw(STYLE)}</style>
</head>
<body data-api="${API_PREFIX}/public/recipient/${token}">
<h1>Parcel ${v.reservationNumber}</h1>
<dl>
<dt>Status</dt><dd id="status">${STATUS_LABELS[v.status] ?? v.status}</dd>
<dt>From</dt><dd>${v.departureCity}</dd>
<dt>To</dt><dd>${v.arrivalCity}</dd>
<dt>Expected</dt><dd>${v.arrivalDate}</dd>
<dt>Carrier</dt><dd>${v.carrierName}</dd>
<dt>Last position</dt><dd id="position">${positionText(v.lastPosition)}</dd>
</dl>
<section id="qr-section">
<h2>Delivery code</h2>
<p class="muted" id="qr-help">${v.deliveryQr ? 'Show this code to the carrier when you receive the parcel.' : 'The code appears once the carrier has the parcel.'}</p>
<div id="delivery-qr" role="img" aria-label="Delivery QR code" data-payload="${v.deliveryQr?.payload ?? ''}" data-expires-at="${v.deliveryQr?.expiresAt ?? ''}">${raw(v.deliveryQr?.svg ?? '')}</div>
</section>
<script nonce="${nonce}">${raw(SCRIPT)}</script>
</body>
</html>`;
}

// Polls the JSON twin every few seconds; the server hands out a new payload well before expiry.
const SCRIPT = `(function(){
var api=document.body.getAttribute('data-api');var labels=${JSON.stringify(STATUS_LABELS)};
function show(v){
document.getElementById('status').textContent=labels[v.status]||v.status;
var p=v.lastPosition;document.getElementById('position').textContent=p?p.lat.toFixed(5)+', '+p.lng.toFixed(5)+' at '+p.recordedAt:'Not yet known';
var box=document.getElementById('delivery-qr');var qr=v.deliveryQr;
if(!qr){box.innerHTML='';box.setAttribute('data-payload','');document.getElementById('qr-help').textContent=v.status==='DELIVERED'?'Delivered. Thank you!':'The code appears once the carrier has the parcel.';return;}
if(box.getAttribute('data-payload')!==qr.payload){box.innerHTML=qr.svg;box.setAttribute('data-payload',qr.payload);box.setAttribute('data-expires-at',qr.expiresAt);}
}
function tick(){fetch(api,{cache:'no-store'}).then(function(r){return r.ok?r.json():null}).then(function(v){if(v)show(v)}).catch(function(){}).then(function(){setTimeout(tick,3000)});}
setTimeout(tick,3000);
})();`;

const notFoundPage = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Not found</title></head>
<body><h1>Not found</h1><p>This parcel link does not exist or is no longer valid.</p></body></html>`;

export const recipientPageRouter = createRouter().openapi(
  createRoute({
    method: 'get',
    operationId: 'recipientPage',
    path: '/r/{recipientToken}',
    tags: ['Handover'],
    summary: "Recipient's page (HTML, no account): parcel status, last position, delivery QR",
    security: [],
    // Any path segment is accepted: a browser gets the 404 page, never a JSON validation error.
    request: { params: z.object({ recipientToken: z.string().openapi({ param: { name: 'recipientToken', in: 'path' } }) }) },
    responses: { 200: htmlResponse('The recipient page'), 404: htmlResponse('Unknown or revoked link') },
  }),
  async (c) => {
    const token = c.req.valid('param').recipientToken;
    const view = RecipientTokenParams.safeParse({ recipientToken: token }).success ? await recipientView(c.var.deps, token) : null;
    c.header('Cache-Control', 'no-store');
    if (!view) return c.html(notFoundPage, 404);
    return c.html(page(token, view, cspNonce(c)), 200);
  },
);
