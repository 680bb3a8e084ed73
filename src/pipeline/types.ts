/** The construction pipeline's data contracts, shared with the language plugins (their home is the plugin contract's folder). */
export type * from '../languages/construction-types.js';
