import type { Unit } from './construction-types.js';

/**
 * The unit a task's cases call: the unit itself, or for a unit recorded through an entry (`Unit.via`:
 * a module-internal function, or a helper whose own calls do not pin it down) that entry, which
 * reaches it (the examples and tests call that one).
 */
export function calledUnit(unit: Unit): Unit {
  if (unit.via === undefined) return unit;
  const { via, ...own } = unit;
  return { ...own, ...via };
}
