import protobuf from 'protobufjs';

/**
 * Finds the first field whose wire type does not match its declared type (a client built from a
 * different version of the proto, or a hand-rolled encoder), and names it in snake_case.
 * protobufjs decodes such fields into garbage or throws without naming them; this names them.
 * Returns null when every known field is well typed.
 */
export function findWireTypeProblem(type: protobuf.Type, bytes: Uint8Array): string | null {
  try {
    return walk(type, protobuf.Reader.create(bytes), bytes.length, '');
  } catch (err) {
    return `request: not a valid ${type.name} message (${err instanceof Error ? err.message : String(err)})`;
  }
}

const WIRE_NAMES = ['varint', '64-bit', 'length-delimited', 'group start', 'group end', '32-bit'];

function walk(type: protobuf.Type, reader: protobuf.Reader, end: number, prefix: string): string | null {
  while (reader.pos < end) {
    const tag = reader.uint32();
    const wire = tag & 7;
    const field = type.fieldsById[tag >>> 3];
    if (!field) {
      reader.skipType(wire);
      continue;
    }
    const name = `${prefix}${field.name}`;
    const nested = field.resolvedType instanceof protobuf.Type ? field.resolvedType : null;
    const expected = nested ? 2 : (protobuf.types.basic as Record<string, number | undefined>)[field.type] ?? 0;
    // Packed repeated scalars arrive length-delimited.
    if (wire !== expected && !(field.repeated && wire === 2)) {
      const declared = nested ? `a ${nested.name} message` : `${field.type}`;
      return `${name}: expected ${declared}, got a ${WIRE_NAMES[wire] ?? `type-${wire}`} value on the wire`;
    }
    if (nested) {
      const length = reader.uint32();
      const problem = walk(nested, reader, reader.pos + length, `${name}.`);
      if (problem) return problem;
      continue;
    }
    reader.skipType(wire);
  }
  return null;
}
