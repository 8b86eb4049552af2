/**
 * A query DTO compiled at boot for the hot path: its class-transformer transforms and the very
 * class-validator constraint objects of each property, called directly. class-validator itself
 * looks up every class's metadata on every call (an instanceof test per class with metadata),
 * which made validation a visible share of a request. Only the valid case is decided here: a
 * query found invalid is validated again by class-validator, so error bodies never differ. A DTO
 * using anything else (nested objects, groups, `each`, async rules) is not compiled.
 */
// class-transformer's metadata registry: public in its typings, not re-exported by its index.
type Storage = typeof import('class-transformer/types/storage');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as Storage;
import { TransformationType } from 'class-transformer';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { ValidationArguments } from 'class-validator';
import type { QueryClass } from './contract';

type Transform = (params: {
  value: unknown;
  key: string;
  obj: Record<string, unknown>;
  type: TransformationType;
  options: object;
}) => unknown;
type Check = (object: Record<string, unknown>, value: unknown) => boolean;

interface CompiledProperty {
  name: string;
  transforms: Transform[];
  /** IsOptional and ValidateIf: all must hold for the checks to run. */
  conditions: Check[];
  checks: Check[];
}

/** class-transformer's copy of an untyped value: objects and arrays rebuilt, undefined members kept. */
function copyPlain(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(copyPlain);
  if (value instanceof Date) return new Date(value.getTime());
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) {
    const v = copyPlain((value as Record<string, unknown>)[k]);
    // An own "__proto__" member (JSON.parse makes one) stays a member: assigning it would set the
    // copy's prototype and drop the key, so a body's unknown "__proto__" would pass unseen.
    if (k === '__proto__')
      Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    else out[k] = v;
  }
  return out;
}

export class CompiledDto<Q extends object> {
  private constructor(
    private readonly dto: QueryClass<Q>,
    private readonly properties: CompiledProperty[],
    private readonly transformsByKey: Map<string, Transform[]>,
  ) {}

  /** undefined when the DTO uses a feature the compiled path does not reproduce. */
  static compile<Q extends object>(dto: QueryClass<Q>): CompiledDto<Q> | undefined {
    const storage = getMetadataStorage();
    const metadatas = storage.getTargetValidationMetadatas(dto, '', true, false);
    const byProperty = new Map<string, CompiledProperty>();
    const transformsByKey = new Map<string, Transform[]>();
    const prop = (name: string) => {
      let p = byProperty.get(name);
      if (!p) byProperty.set(name, (p = { name, transforms: [], conditions: [], checks: [] }));
      return p;
    };
    for (const m of metadatas) {
      if (m.each || (m.groups && m.groups.length > 0) || m.always) return undefined;
      const p = prop(m.propertyName);
      if (m.type === ValidationTypes.CONDITIONAL_VALIDATION) {
        p.conditions.push(m.constraints[0] as Check);
      } else if (m.type === ValidationTypes.CUSTOM_VALIDATION) {
        const constraints = storage.getTargetValidatorConstraints(m.constraintCls);
        if (constraints.some((c) => c.async)) return undefined;
        const validateIf = m.validateIf;
        for (const c of constraints) {
          const instance = c.instance as { validate(value: unknown, args: ValidationArguments): boolean };
          p.checks.push((object, value) => {
            if (validateIf && !validateIf(object, value)) return true;
            return instance.validate(value, {
              targetName: dto.name,
              property: m.propertyName,
              object,
              value,
              constraints: m.constraints,
            });
          });
        }
      } else {
        return undefined;
      }
    }
    for (const name of byProperty.keys()) {
      const transforms = defaultMetadataStorage
        .findTransformMetadatas(dto, name, TransformationType.PLAIN_TO_CLASS)
        .map((t) => t.transformFn as Transform);
      transformsByKey.set(name, transforms);
      byProperty.get(name)!.transforms = transforms;
    }
    return new CompiledDto(dto, [...byProperty.values()], transformsByKey);
  }

  /** Known keys only (the caller guarantees it); object values are copied as class-transformer copies them. */
  instantiate(plain: Record<string, unknown>): Q {
    const instance = new this.dto() as Record<string, unknown>;
    for (const key of Object.keys(plain)) {
      let value = copyPlain(plain[key]);
      for (const t of this.transformsByKey.get(key) ?? []) {
        value = t({ value, key, obj: plain, type: TransformationType.PLAIN_TO_CLASS, options: {} });
      }
      instance[key] = value;
    }
    return instance as Q;
  }

  isValid(instance: Q): boolean {
    const object = instance as Record<string, unknown>;
    for (const p of this.properties) {
      const value = object[p.name];
      if (!p.conditions.every((c) => c(object, value))) continue;
      for (const check of p.checks) if (!check(object, value)) return false;
    }
    return true;
  }
}
