export * from './lesson-store';
export * from './rank-lessons';
export * from './lesson-candidates';
