/**
 * What the corporate and invoice registers answer on a gateway's store (DATA_DIR), asked as the
 * registry's endpoints ask them: the gateway's own CorporateRegistry and InvoiceRegister (from its
 * container, over the store it opened) and the views of domain/registry/answers, each corporation
 * with its filer in the EDINET code list held and the list's provenance note. The gateway runs
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
  candidates: Array<CandidateView & { edinet: EdinetView | null }>;
  provenance: DataProvenance;
}

export class RegistryAnswers {
  private constructor(
    private readonly gw: TestGateway,
    private readonly registry: CorporateRegistry,
    private readonly invoices: InvoiceRegister,
  ) {}

  /**
   * A gateway on `dataDir`'s store, its clock stopped at `clock`: the SQLite store there, unless
   * `storeEnv` names a MongoDB database (MONGODB_URI, MONGODB_DB).
   */
  static async on(
    dataDir: string,
    clock: string,
    storeEnv: Record<string, string> = { MONGODB_URI: '' },
  ): Promise<RegistryAnswers> {
    const gw = await startTestGateway({
      pluginDirs: [FIXTURE_PLUGINS_DIR],
      plugins: ['local-fx-echo'],
      env: { DATA_DIR: dataDir, ...storeEnv },
      clock,
    });
    const c = gw.gateway.container;
    return new RegistryAnswers(gw, c.resolve(CorporateRegistry), c.resolve(InvoiceRegister));
  }

  private now(): Date {
    return this.gw.gateway.clock.now();
  }

  async byNumber(corporateNumber: string): Promise<NumberAnswer> {
    const source = await this.registry.source();
    const found = await source.getByNumber(corporateNumber);
    const corporation = found && found.status !== 'deleted' ? found : null;
    const numbers = corporation ? [corporateNumber] : [];
    const edinet = await this.registry.edinet(numbers);
    return {
      corporation: corporation && corporationView(corporation, source.sourceTag),
      edinet: edinet.of(corporateNumber),
      provenance: edinet.addTo(await this.registry.provenance(source, this.now(), numbers), numbers),
    };
  }

  async byName(name: string, limit = 10): Promise<NameAnswer> {
    const { source, candidates, found } = await this.registry.searchByName(name, undefined, limit);
    const numbers = candidates.map((c) => c.corporation.corporate_number);
    const edinet = await this.registry.edinet(numbers);
    return {
      candidates: candidates.map((c) => ({
        ...candidateView(c.match, c.corporation, source.sourceTag),
        edinet: edinet.of(c.corporation.corporate_number),
      })),
      provenance: edinet.addTo(await this.registry.provenance(source, this.now(), numbers, found), numbers),
    };
  }

  /** What the registry's answers search now, as /product-status.json states it for its endpoints. */
  coverage(): DataCoverage {
    return this.registry.coverage(this.now());
  }

  async registration(tNumber: string): Promise<RegistrationAnswer | undefined> {
    return (await this.invoices.lookupMany([tNumber], this.now())).get(tNumber);
  }

  /** What the invoice register says it searched for these answers (ask them first). */
  registrationProvenance(answered: readonly RegistrationAnswer[]): DataProvenance {
    return this.invoices.provenance(this.now(), answered);
  }

  close(): Promise<void> {
    return this.gw.close();
  }
}
