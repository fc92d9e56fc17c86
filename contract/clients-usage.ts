// What issue 32 found: generated clients typed Conversation.lastMessage and RecipientView.deliveryQr
// as never null (the server sends null), and the single tracking point as not accepted. These lines
// compile only while both generators (@hey-api/openapi-ts, orval) type them as the server sends them.
import type * as Hey from './generated/hey-api/types.gen';
import type * as Orval from './generated/orval/api';

export const heyNoMessageYet: Hey.Conversation['lastMessage'] = null;
export const heyNoQrYet: Hey.RecipientView['deliveryQr'] = null;
export const heyOnePoint: Hey.PositionsBody = { lat: 48.8566, lng: 2.3522, recordedAt: '2026-11-27T10:00:00Z' };
export const orvalNoMessageYet: Orval.Conversation['lastMessage'] = null;
export const orvalNoQrYet: Orval.RecipientView['deliveryQr'] = null;
export const orvalOnePoint: Orval.PositionsBody = { lat: 48.8566, lng: 2.3522, recordedAt: '2026-11-27T10:00:00Z' };
