import { Hono, type Context } from 'hono';
import { toCsv } from '../../lib/export';
import {
  GROSS_NOTE,
  TAX_YEAR_COUNTED,
  taxYearExportColumns,
  taxYearExportName,
  taxYearExportRow,
  taxYearSpan,
  utcYear,
  type TaxYearAnswer,
} from '../../lib/tax-year';
import { walletTaxYear } from '../index/wallet-tax-year';
import {
  downloadRequest,
  mounted,
  parse,
  pathParam,
  readOf,
  type ApiContext,
  type ApiEnv,
} from './api-context';
import { taxYearParams, walletAddress } from './params';
import { COVERS } from './wallets-api';

/** The tokens a wallet sold in a UTC year, for taxes: as JSON and as a CSV file. */
export function taxYearApi(api: ApiContext) {
  const { now } = api;
  const app = new Hono<ApiEnv>();

  // The tokens a wallet sold in a year, as JSON and as a file: what it answers is stored.
  async function taxYearRequest(c: Context) {
    const params = parse(c, taxYearParams);
    if (params instanceof Response) return params;
    const wallet = pathParam(c, 'address', walletAddress);
    if (wallet instanceof Response) return wallet;
    const year = params.year ?? utcYear(now());
    const { pool } = await readOf(c);
    return { address: wallet, year, ...(await walletTaxYear(pool, wallet, year)) };
  }

  app.get(mounted('walletTaxYear'), async (c) => {
    const found = await taxYearRequest(c);
    if (found instanceof Response) return found;
    const answer: TaxYearAnswer = {
      ...found,
      ...taxYearSpan(found.year),
      gross: GROSS_NOTE,
      counted: TAX_YEAR_COUNTED,
      covers: COVERS,
    };
    return c.json(answer);
  });

  app.get(mounted('walletTaxYearExport'), async (c) => {
    const found = await taxYearRequest(c);
    if (found instanceof Response) return found;
    return api.downloads.respond(downloadRequest(c), {
      name: `${taxYearExportName(found.address, found.year)}.csv`,
      type: 'text/csv',
      async *text() {
        yield toCsv(found.sales.map(taxYearExportRow), taxYearExportColumns);
      },
    });
  });

  return app;
}
