// TRANSITIONAL: moved to features/reservations/reservation-access.ts.
export * from '../reservations/reservation-access';
