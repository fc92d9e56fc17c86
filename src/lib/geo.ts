// Great-circle distances and the cells the nearby search seeks (CONTRACT section 30). Pure
// functions: the search, the alerts and scripts/build-reference-data.mjs (cellOf, in SQL) agree.

/** Mean Earth radius (IUGG), km. */
export const EARTH_RADIUS_KM = 6371.0088;
const RAD = Math.PI / 180;

export interface Point {
  latitude: number;
  longitude: number;
}

/** Great-circle distance (haversine), km. */
export function distanceKm(a: Point, b: Point): number {
  const dLat = (b.latitude - a.latitude) * RAD;
  const dLng = (b.longitude - a.longitude) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * RAD) * Math.cos(b.latitude * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A distance as shown: km with one decimal. */
export const roundKm = (km: number): number => Math.round(km * 10) / 10;

export interface Box {
  minLatitude: number;
  maxLatitude: number;
  minLongitude: number;
  maxLongitude: number;
}

/**
 * The smallest latitude/longitude box holding every point within `radiusKm` of `center`
 * (the bounding box of a spherical cap: the widest longitude is asin(sin(r) / cos(lat))). A box
 * reaching a pole spans every longitude. Longitudes are not wrapped across the antimeridian: the
 * corridor (Europe, Africa, Canada) never reaches it.
 */
export function boxAround(center: Point, radiusKm: number): Box {
  const angular = radiusKm / EARTH_RADIUS_KM;
  const dLat = angular / RAD;
  const minLatitude = center.latitude - dLat;
  const maxLatitude = center.latitude + dLat;
  if (maxLatitude >= 90 || minLatitude <= -90) {
    return { minLatitude: Math.max(minLatitude, -90), maxLatitude: Math.min(maxLatitude, 90), minLongitude: -180, maxLongitude: 180 };
  }
  const dLng = Math.asin(Math.min(1, Math.sin(angular) / Math.cos(center.latitude * RAD))) / RAD;
  return { minLatitude, maxLatitude, minLongitude: Math.max(center.longitude - dLng, -180), maxLongitude: Math.min(center.longitude + dLng, 180) };
}

/** Cells are squares of CELL_DEGREES, numbered row by row from the south-west corner. */
export const CELL_DEGREES = 2;
const COLUMNS = 360 / CELL_DEGREES;
const row = (latitude: number) => Math.floor((latitude + 90) / CELL_DEGREES);
const column = (longitude: number) => Math.floor((longitude + 180) / CELL_DEGREES);

/** The cell of a point (migration 0076 computes the same in SQL for the trips it places). */
export const cellOf = (p: Point): number => row(p.latitude) * COLUMNS + column(p.longitude);

/** Every cell a box touches. */
export function cellsOf(box: Box): number[] {
  const cells: number[] = [];
  for (let r = row(box.minLatitude); r <= row(box.maxLatitude); r++) {
    for (let c = column(box.minLongitude); c <= column(box.maxLongitude); c++) cells.push(r * COLUMNS + c);
  }
  return cells;
}
