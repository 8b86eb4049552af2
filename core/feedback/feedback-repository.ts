/** Anonymous feedback records as a repository (issue 13): appended, never changed. */
export interface FeedbackRecord {
  id: string;
  productId: string;
  endpointId?: string;
  category?: string;
  rating?: number;
  message?: string;
  receivedAt: Date;
  /** Salted hash of the client, for abuse limits only; never the address itself. */
  clientHash: string;
}

export interface FeedbackRepository {
  /** Stores a record durably before it is acknowledged; a duplicate id is refused. */
  add(record: FeedbackRecord): Promise<void>;
  /** The newest records, newest first (for operators and tests). */
  recent(limit: number): Promise<FeedbackRecord[]>;
}
