/**
 * What the corporate and invoice registers answer on a gateway's store (DATA_DIR), asked as the
 * registry's endpoints ask them: the gateway's own CorporateRegistry and InvoiceRegister (from its
 * container, over the store it opened) and the views of domain/registry/answers. The gateway runs
 * the kernel's fixture plugins, so the import tool's tests check what an import changes without
 * loading or naming any endpoint of plugins/ (whose own tests check their payloads).
 */
import type { DataCoverage, DataProvenance } from '../../core/plugins/contract';
import type { CandidateView, CorporationView } from '../../domain/registry/answers/views';
import { candidateView, corporationView } from '../../domain/registry/answers/views';
import type { EdinetView } from '../../domain/registry/answers/edinet-answers';
import { CorporateRegistry } from '../../domain/registry/sources/corporate-registry';
import { InvoiceRegister, type RegistrationAnswer } from '../../domain/registry/sources/invoice-register';
import { FIXTURE_PLUGINS_DIR, startTestGateway, type TestGateway } from './gateway';

export interface NumberAnswer {
  /** The corporation as answers show it; null when the register has no such number. */
  corporation: CorporationView | null;
  edinet: EdinetView | null;
  provenance: DataProvenance;
}

export interface NameAnswer {
  candidates: CandidateView[];
  provenance: DataProvenance;
}

export class RegistryAnswers {
  private constructor(
    private readonly gw: TestGateway,
    private readonly registry: CorporateRegistry,
    private readonly invoices: InvoiceRegister,
  ) {}

  /** A gateway on `dataDir`'s SQLite store, its clock stopped at `clock`. */
  static async on(dataDir: string, clock: string): Promise<RegistryAnswers> {
    const gw = await startTestGateway({
      pluginDirs: [FIXTURE_PLUGINS_DIR],
      plugins: ['local-fx-echo'],
      env: { DATA_DIR: dataDir, MONGODB_URI: '' },
      clock,
    });
    const c = gw.gateway.services.container;
    return new RegistryAnswers(gw, c.resolve(CorporateRegistry), c.resolve(InvoiceRegister));
  }

  private now(): Date {
    return this.gw.gateway.services.clock.now();
  }

  async byNumber(corporateNumber: string): Promise<NumberAnswer> {
    const source = await this.registry.source();
    const found = await source.getByNumber(corporateNumber);
    const corporation = found && found.status !== 'deleted' ? found : null;
    const numbers = corporation ? [corporateNumber] : [];
    return {
      corporation: corporation && corporationView(corporation, source.sourceTag),
      edinet: (await this.registry.edinet(numbers)).of(corporateNumber),
      provenance: await this.registry.provenance(source, this.now(), numbers),
    };
  }

  async byName(name: string, limit = 10): Promise<NameAnswer> {
    const { source, candidates, found } = await this.registry.searchByName(name, undefined, limit);
    const numbers = candidates.map((c) => c.corporation.corporate_number);
    return {
      candidates: candidates.map((c) => candidateView(c.match, c.corporation, source.sourceTag)),
      provenance: await this.registry.provenance(source, this.now(), numbers, found),
    };
  }

  /** What the registry's answers search now, as /product-status.json states it for its endpoints. */
  coverage(): DataCoverage {
    return this.registry.coverage(this.now());
  }

  async registration(tNumber: string): Promise<RegistrationAnswer | undefined> {
    return (await this.invoices.lookupMany([tNumber], this.now())).get(tNumber);
  }

  close(): Promise<void> {
    return this.gw.close();
  }
}
