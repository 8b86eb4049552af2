/**
 * Query parameters several grants endpoints share, as DTO property decorators: each carries its
 * bounds, accepted values and description, so openapi.json and the 422 correction hints come
 * from one place.
 */
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { Doc, ToBool, ToInt } from '../../core/plugins/query-rules';
import { acceptedValues, INDUSTRIES, PURPOSES } from './taxonomy';

function compose(...decorators: PropertyDecorator[]): PropertyDecorator {
  // Applied last to first, like stacked decorators, so Doc (first) sees every rule's schema.
  return (target, key) => {
    for (const d of [...decorators].reverse()) d(target, key);
  };
}

export function IndustryParam(description: string): PropertyDecorator {
  return compose(
    Doc({
      description: `${description}: a Japan Standard Industrial Classification major group, as this service's slug (manufacturing) or jGrants' Japanese label (製造業)`,
      example: 'manufacturing',
    }),
    IsOptional(),
    IsString(),
    IsIn(acceptedValues(INDUSTRIES)),
  );
}

export function PurposeParam(description: string): PropertyDecorator {
  return compose(
    Doc({
      description: `${description}: one of jGrants' 15 use purposes, as this service's slug (equipment_it) or the Japanese label (設備整備・IT導入をしたい)`,
      example: 'equipment_it',
    }),
    IsOptional(),
    IsString(),
    IsIn(acceptedValues(PURPOSES)),
  );
}

export const EMPLOYEES_MAX = 1_000_000;

export function EmployeesParam(description: string): PropertyDecorator {
  return compose(
    Doc({
      description: `${description} (head count, 0 to ${EMPLOYEES_MAX.toLocaleString('en-US')})`,
      example: 45,
    }),
    IsOptional(),
    ToInt(),
    IsInt(),
    Min(0),
    Max(EMPLOYEES_MAX),
  );
}

export function LimitParam(): PropertyDecorator {
  return compose(
    Doc({ description: 'Maximum number of grants in the answer', example: 10 }),
    IsOptional(),
    ToInt(),
    IsInt(),
    Min(1),
    Max(50),
  );
}

export function OpenOnlyParam(): PropertyDecorator {
  return compose(
    Doc({
      description: 'Only grants accepting applications now (true), or closed and upcoming ones too (false)',
    }),
    IsOptional(),
    ToBool(),
    IsBoolean(),
  );
}
