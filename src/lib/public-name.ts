// How another user's name is shown publicly: first name and last initial, never email or phone.
export function publicName(user: { firstName: string; lastName: string }): string {
  const initial = user.lastName.trim().charAt(0);
  return initial ? `${user.firstName} ${initial.toUpperCase()}.` : user.firstName;
}
