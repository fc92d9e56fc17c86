// Every drizzle table, one file per area, re-exported here: the schema lives in this folder only.
export * from './users';
export * from './catalog';
export * from './reservations';
export * from './notifications';
export * from './community';
export * from './alerts';
export * from './identity';
export * from './trust';
export * from './money';
export * from './disputes';
export * from './devices';
export * from './conversations';
export * from './deliveries';
export * from './console';
export * from './privacy';
export * from './protection';
export * from './mobile-money';
