// "My upload of purpose P": a file the caller uploaded for that purpose and, where it joins a
// reservation, still free or already on that reservation. The one rule of chat photos, dispute
// evidence, travel proofs and avatars.
import type { FilePurpose } from '../db/schema';

export interface UploadRow {
  ownerId: number;
  purpose: string;
  reservationId?: number | null;
}

/** Is `f` the caller's own upload of `purpose` (free, or on `reservationId` when one is given)? */
export function isOwnUpload(userId: number, f: UploadRow | undefined, purpose: FilePurpose, reservationId?: number): f is UploadRow {
  if (!f || f.ownerId !== userId || f.purpose !== purpose) return false;
  return reservationId === undefined || f.reservationId == null || f.reservationId === reservationId;
}
