// Conversion between units of length, mass, volume and temperature, and "3.5 km"-style quantities.
import { ParseError } from './errors.js';

// unit -> [dimension, factor, offset]: value in the base unit = value * factor + offset.
// Base units: metre, kilogram, litre, kelvin.
const UNITS = {
  mm: ['length', 0.001, 0], cm: ['length', 0.01, 0], m: ['length', 1, 0], km: ['length', 1000, 0],
  in: ['length', 0.0254, 0], ft: ['length', 0.3048, 0], mi: ['length', 1609.344, 0],
  g: ['mass', 0.001, 0], kg: ['mass', 1, 0], t: ['mass', 1000, 0],
  oz: ['mass', 0.028349523125, 0], lb: ['mass', 0.45359237, 0],
  ml: ['volume', 0.001, 0], l: ['volume', 1, 0],
  K: ['temperature', 1, 0], C: ['temperature', 1, 273.15], F: ['temperature', 5 / 9, 273.15 - 160 / 9],
};

function lookUp(unit) {
  throw new Error('not implemented');
}

/**
 * Converts a value from one unit to another of the same dimension. Units (case-sensitive): length
 * `mm cm m km in ft mi`, mass `g kg t oz lb`, volume `ml l`, temperature `K C F` (offsets
 * included, so 0 C is 32 F). The result is rounded to 12 significant digits to hide binary
 * rounding noise. Throws TypeError for a value that is not a finite number or for units of
 * different dimensions, and RangeError for an unknown unit or a temperature below absolute zero.
 *
 * @param {number} value the amount in `from` units
 * @param {string} from the unit of `value`
 * @param {string} to the unit wanted
 * @returns {number} the amount in `to` units
 * @example convert(1, 'mi', 'km') // => 1.609344
 * @example convert(100, 'C', 'F') // => 212
 */
export function convert(value, from, to) {
  throw new Error('not implemented');
}

/**
 * Parses a quantity such as "3.5 km" or "-40°F" into `{ value, unit, dimension }`. The number may
 * have a sign, a decimal part and an exponent; spaces are allowed around it and before the unit,
 * and "°" may precede `C` or `F`. Throws TypeError when `text` is not a string, ParseError (with
 * the offset) when the number or the unit is missing or text follows the unit, and RangeError for
 * a unit not known to `convert`.
 *
 * @param {string} text the quantity
 * @returns {{value: number, unit: string, dimension: string}} the parsed quantity
 * @example parseQuantity('3.5 km') // => { value: 3.5, unit: 'km', dimension: 'length' }
 * @example parseQuantity('-40°F') // => { value: -40, unit: 'F', dimension: 'temperature' }
 */
export function parseQuantity(text) {
  throw new Error('not implemented');
}
