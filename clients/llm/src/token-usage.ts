/** The tokens of one model call (or a sum of them), as the endpoint reported them. */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Of the prompt tokens, those the endpoint's prompt cache served (priced lower); absent when not reported. */
  cachedInputTokens?: number;
}
