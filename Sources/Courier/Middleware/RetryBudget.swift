import Synchronization

extension RetryPolicy {
    /// A token bucket that caps retries across every call of a client, as gRPC's retry throttling
    /// does: each failed attempt takes a token, each success gives back ``tokenRatio``, and retries
    /// stop while the bucket is at or below half. A server that fails everything then sees about
    /// one attempt per call instead of ``RetryPolicy/maxAttempts``; one that fails some calls sees at
    /// most about `tokenRatio` extra attempts per success (10% by default).
    ///
    /// Share one budget per client (one ``RetryMiddleware`` does); give several middlewares the
    /// same instance to share it between clients of one server.
    public final class Budget: Sendable {
        /// The bucket's size.
        public let maxTokens: Double
        /// Tokens a success gives back.
        public let tokenRatio: Double
        private let tokens: Mutex<Double>

        /// A full bucket of `maxTokens` (gRPC's example values: 10 tokens, 0.1 per success).
        public init(maxTokens: Double = 10, tokenRatio: Double = 0.1) {
            self.maxTokens = max(1, maxTokens)
            self.tokenRatio = max(0, tokenRatio)
            self.tokens = Mutex(max(1, maxTokens))
        }

        /// Tokens in the bucket now.
        public var available: Double { tokens.withLock { $0 } }

        /// Whether a retry may be sent now.
        public var allowsRetry: Bool { tokens.withLock { $0 > maxTokens / 2 } }

        /// Takes a token for an extra request (a hedge) when a retry would be allowed now; false
        /// when the bucket is at or below half. Check and take are one step.
        public func withdraw() -> Bool {
            tokens.withLock { tokens in
                guard tokens > maxTokens / 2 else { return false }
                tokens -= 1
                return true
            }
        }

        /// An attempt failed in a way worth retrying.
        public func recordFailure() {
            tokens.withLock { $0 = max(0, $0 - 1) }
        }

        /// An attempt succeeded.
        public func recordSuccess() {
            tokens.withLock { $0 = min(maxTokens, $0 + tokenRatio) }
        }
    }
}
