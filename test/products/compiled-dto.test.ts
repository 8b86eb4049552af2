/**
 * Product-wide: the compiled DTO path agrees with class-validator and class-transformer on random
 * inputs for the query DTO of every endpoint sold from plugins/ (the kernel's own DTOs and rules
 * are checked in test/core/plugins/compiled-dto.test.ts).
 */
import { expect } from 'chai';
import { expectCompiledAgrees, type CheckedDto } from '../support/dto-agreement';
import { startTestGateway } from '../support/gateway';

describe('compiled DTO validation of every sold endpoint in plugins/', function () {
  this.timeout(120_000);
  const dtos: CheckedDto[] = [];
  before(async () => {
    const gw = await startTestGateway();
    for (const p of gw.gateway.registry.sold()) dtos.push([p.endpointId, p.manifest.query, false]);
    await gw.close();
  });

  it('gives the same verdict and the same instance on 1500 random inputs per DTO', () => {
    expect(dtos.length).to.be.greaterThan(0);
    const { valid, invalid } = expectCompiledAgrees(dtos);
    // Both outcomes were exercised on a good share of inputs (at least one in thirty each).
    const share = (valid + invalid) / 30;
    expect(valid).to.be.greaterThan(share);
    expect(invalid).to.be.greaterThan(share);
  });
});
