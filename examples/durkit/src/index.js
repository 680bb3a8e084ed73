export { describeDuration, totalDuration } from './durations.js';
export { withDefaults } from './options.js';
