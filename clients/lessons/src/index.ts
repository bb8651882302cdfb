export * from './lesson-store';
export * from './rank-lessons';
