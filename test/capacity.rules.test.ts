// The capacity rule of a trip (announcements/capacity.ts), the one the booking check, the booking's
// SQL guard, its FULL flip and the search share.
import { describe, expect, it } from 'vitest';
import { fitsCapacity, remainingCapacityG } from '../src/features/announcements/capacity';

describe('capacity', () => {
  it.each([
    [10_000, 0, 10_000],
    [10_000, 2_500, 7_500],
    [10_000, 10_000, 0],
    // A total lowered below what is reserved never shows a negative remainder.
    [5_000, 6_000, 0],
  ])('total %i g, reserved %i g: %i g remain', (totalWeightG, reservedWeightG, remaining) => {
    expect(remainingCapacityG({ totalWeightG, reservedWeightG })).toBe(remaining);
  });

  it.each([
    [10_000, 2_500, 7_500, true],
    [10_000, 2_500, 7_501, false],
    [10_000, 10_000, 1, false],
    [10_000, 0, 10_000, true],
  ])('total %i g, reserved %i g: a booking of %i g fits: %s', (totalWeightG, reservedWeightG, weightG, fits) => {
    expect(fitsCapacity({ totalWeightG, reservedWeightG }, weightG)).toBe(fits);
  });
});
