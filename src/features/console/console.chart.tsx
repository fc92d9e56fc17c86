// The overview's chart drawn on the server: reservations per day as bars (left axis) and gross
// volume per day as a line (right axis), in one SVG with its own text alternative.
import type { FC } from 'hono/jsx';
import { amountOf } from '../../lib/money';

export interface DayPoint {
  day: string;
  reservations: number;
  volumeCents: number;
}

const W = 760;
const H = 260;
const PAD = { left: 40, right: 64, top: 14, bottom: 30 };

/** A round upper bound for an axis (1, 2, 5 x 10^n), never 0. */
export function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return ([1, 2, 5, 10].find((m) => m * power >= value) ?? 10) * power;
}

export const DailyChart: FC<{ points: DayPoint[]; title: string; currency: string; locale: string }> = ({ points, title, currency, locale }) => {
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  // Counts are whole numbers: a multiple of 4 keeps the four gridlines on integers.
  const maxR = Math.max(4, Math.ceil(niceMax(Math.max(0, ...points.map((p) => p.reservations))) / 4) * 4);
  const maxV = niceMax(amountOf(Math.max(0, ...points.map((p) => p.volumeCents)), currency));
  const step = plotW / Math.max(1, points.length);
  const x = (i: number) => PAD.left + i * step + step / 2;
  const yR = (n: number) => PAD.top + plotH - (n / maxR) * plotH;
  const yV = (euros: number) => PAD.top + plotH - (euros / maxV) * plotH;
  const money = new Intl.NumberFormat(locale, { style: 'currency', currency, maximumFractionDigits: 0 });
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const labelEvery = Math.max(1, Math.ceil(points.length / 8));
  const line = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${yV(amountOf(p.volumeCents, currency)).toFixed(1)}`).join(' ');
  const summary = points.map((p) => `${p.day}: ${p.reservations}, ${money.format(amountOf(p.volumeCents, currency))}`).join('; ');
  return (
    <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${title}. ${summary}`} xmlns="http://www.w3.org/2000/svg">
      {ticks.map((f) => (
        <g>
          <line x1={PAD.left} x2={W - PAD.right} y1={PAD.top + plotH * (1 - f)} y2={PAD.top + plotH * (1 - f)} stroke="#e6e9f0" />
          <text x={PAD.left - 6} y={PAD.top + plotH * (1 - f) + 4} font-size="11" text-anchor="end" fill="#5b6475">
            {Math.round(maxR * f)}
          </text>
          <text x={W - PAD.right + 6} y={PAD.top + plotH * (1 - f) + 4} font-size="11" fill="#5b6475">
            {money.format(maxV * f)}
          </text>
        </g>
      ))}
      {points.map((p, i) => (
        <rect x={x(i) - step * 0.32} width={step * 0.64} y={yR(p.reservations)} height={PAD.top + plotH - yR(p.reservations)} rx="2" fill="#8fb0ff">
          <title>{`${p.day}: ${p.reservations}`}</title>
        </rect>
      ))}
      <path d={line} fill="none" stroke="#e0701b" stroke-width="2.2" stroke-linejoin="round" />
      {points.map((p, i) => (
        <circle cx={x(i)} cy={yV(amountOf(p.volumeCents, currency))} r="2.6" fill="#e0701b">
          <title>{`${p.day}: ${money.format(amountOf(p.volumeCents, currency))}`}</title>
        </circle>
      ))}
      {points.map((p, i) =>
        i % labelEvery === 0 ? (
          <text x={x(i)} y={H - 10} font-size="11" text-anchor="middle" fill="#5b6475">
            {p.day.slice(5)}
          </text>
        ) : null,
      )}
    </svg>
  );
};
