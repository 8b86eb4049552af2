import { expect } from 'chai';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { EnvSchema } from '../../../config/env';
import { CompiledDto } from '../../../core/plugins/compiled-dto';
import type { QueryClass } from '../../../core/plugins/contract';
import {
  Doc,
  IsCalendarDate,
  IsYearMonth,
  Rule,
  ToBool,
  ToInt,
  Trim,
} from '../../../core/plugins/query-rules';
import { CreateKeyBody } from '../../../core/keys/key-routes';
import { FeedbackBody } from '../../../core/feedback/feedback-routes';
import { BrokerCallBody } from '../../../core/surfaces/broker';
import { expectCompiledAgrees, type CheckedDto } from '../../support/dto-agreement';
import { FIXTURE_PLUGINS_DIR, startTestGateway } from '../../support/gateway';

/** Every rule a plugin's DTO can take from the kernel and class-validator, with a default. */
class EveryRuleQuery {
  @Doc({ description: 'an integer', example: 10 })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(50)
  limit: number = 10;

  @Doc({ description: 'a flag' })
  @IsOptional()
  @ToBool()
  @IsBoolean()
  verbose: boolean = false;

  @Doc({ description: 'a trimmed text', example: 'abc' })
  @IsOptional()
  @Trim()
  @IsString()
  @MinLength(1)
  @MaxLength(20)
  label?: string;

  @Doc({ description: 'a two-digit code', example: '13' })
  @IsOptional()
  @Matches(/^(0[1-9]|[1-3][0-9]|4[0-7])$/)
  code?: string;

  @Doc({ description: 'one of a list', example: 'yes' })
  @IsOptional()
  @IsIn(['yes', 'no'])
  answer?: string;

  @Doc({ description: 'a required text', example: 'abc' })
  @IsString()
  @IsNotEmpty()
  name!: string;

  @Doc({ description: 'a date' })
  @IsOptional()
  @IsCalendarDate()
  date?: string;

  @Doc({ description: 'a month' })
  @IsOptional()
  @IsYearMonth()
  month?: string;

  @Doc({ description: 'an even number as text' })
  @IsOptional()
  @Rule('even', (v) => typeof v === 'string' && /^\d*[02468]$/.test(v), {
    code: 'not_even',
    accepted: 'an even number',
    message: 'must be an even number',
  })
  even?: string;
}

describe('compiled DTO validation agrees with class-validator and class-transformer', function () {
  this.timeout(60_000);
  const dtos: CheckedDto[] = [
    ['EnvSchema', EnvSchema as QueryClass<object>, false],
    ['CreateKeyBody', CreateKeyBody, true],
    ['FeedbackBody', FeedbackBody, true],
    ['BrokerCallBody', BrokerCallBody, true],
    ['EveryRuleQuery', EveryRuleQuery, false],
  ];
  before(async () => {
    // The fixture plugins' DTOs; test/products/ runs the same over every DTO in plugins/.
    const gw = await startTestGateway({ pluginDirs: [FIXTURE_PLUGINS_DIR] });
    for (const p of gw.gateway.registry.sold()) dtos.push([p.endpointId, p.manifest.query, false]);
    await gw.close();
  });

  it("compiles the kernel's body DTOs, the configuration, every rule and the fixture plugins' DTOs", () => {
    expect(dtos.map(([name]) => name)).to.include.members([
      'local-fx-echo',
      'grants-fx-item',
      'local-fx-failing',
    ]);
    for (const [name, dto] of dtos) expect(CompiledDto.compile(dto), name).to.not.equal(undefined);
  });

  it('gives the same verdict and the same instance on 1500 random inputs per DTO', () => {
    const { valid, invalid } = expectCompiledAgrees(dtos);
    // Both outcomes were exercised on a good share of inputs.
    expect(valid).to.be.greaterThan(1000);
    expect(invalid).to.be.greaterThan(1000);
  });
});
