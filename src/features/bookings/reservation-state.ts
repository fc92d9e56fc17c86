// TRANSITIONAL: moved to features/reservations/reservation-state.ts.
export * from '../reservations/reservation-state';
