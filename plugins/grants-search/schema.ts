import { listingSchema } from '../../domain/grants/payloads';

export const grantsSearchPayloadSchema = listingSchema();
