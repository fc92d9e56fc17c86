// A trip on the map (CONTRACT section 30): the coordinates and cells of its departure and arrival,
// written when it is published and when its cities or countries change. A city that is not one of
// the corridor's places leaves them null: the trip is then found by its city's name only.
import type { Db } from '../../db/client';
import { cellOf, type Point } from '../../lib/geo';
import { locate } from '../reference/places';

interface Route {
  departureCity: string;
  departureCountry: string;
  arrivalCity: string;
  arrivalCountry: string;
}

const side = (p: Point | null) => ({ latitude: p?.latitude ?? null, longitude: p?.longitude ?? null, cell: p ? cellOf(p) : null });

/** The columns placing a trip's route. */
export async function tripPlaces(db: Db, route: Route) {
  const [from, to] = await Promise.all([locate(db, route.departureCity, route.departureCountry), locate(db, route.arrivalCity, route.arrivalCountry)]);
  const d = side(from);
  const a = side(to);
  return {
    departureLatitude: d.latitude,
    departureLongitude: d.longitude,
    departureCell: d.cell,
    arrivalLatitude: a.latitude,
    arrivalLongitude: a.longitude,
    arrivalCell: a.cell,
  };
}

/** Whether an edit moves the route (a city or a country changed), so the trip is placed again. */
export const movesRoute = (input: Partial<Route>): boolean =>
  input.departureCity !== undefined || input.departureCountry !== undefined || input.arrivalCity !== undefined || input.arrivalCountry !== undefined;
