import Courier
import Testing

/// Backoff arithmetic and the budget's token bucket, as pure values.
@Suite("Retry policy and budget")
struct RetryPolicyTests {
    @Test("full jitter: the n-th retry waits random × min(cap, base × 2ⁿ⁻¹)")
    func backoff() {
        let policy = RetryPolicy(baseDelay: .milliseconds(100), maxDelay: .seconds(1))
        #expect(policy.backoff(retry: 1, random: 1) == .milliseconds(100))
        #expect(policy.backoff(retry: 2, random: 1) == .milliseconds(200))
        #expect(policy.backoff(retry: 3, random: 0.5) == .milliseconds(200))
        #expect(policy.backoff(retry: 5, random: 1) == .seconds(1), "capped")
        #expect(policy.backoff(retry: 60, random: 1) == .seconds(1), "no overflow")
        #expect(policy.backoff(retry: 4, random: 0) == .zero)
    }

    @Test("defaults: 3 attempts, 429/502/503/504 and transient transport errors")
    func defaults() {
        let policy = RetryPolicy()
        #expect(policy.maxAttempts == 3)
        #expect(policy.retryableStatuses == [429, 502, 503, 504])
        #expect(policy.retryableErrors.contains(.cannotConnectToHost) && policy.retryableErrors.contains(.networkConnectionLost))
        #expect(!policy.retryableErrors.contains(.cancelled) && !policy.retryableErrors.contains(.secureConnectionFailed))
    }

    @Test("the budget stops retries at half its tokens and earns them back at tokenRatio per success")
    func budget() {
        let budget = RetryPolicy.Budget(maxTokens: 10, tokenRatio: 0.5)
        #expect(budget.allowsRetry)
        for _ in 0..<5 { budget.recordFailure() }
        #expect(budget.available == 5 && !budget.allowsRetry)
        budget.recordSuccess()
        #expect(budget.allowsRetry)
        for _ in 0..<100 { budget.recordFailure() }
        #expect(budget.available == 0)
        for _ in 0..<100 { budget.recordSuccess() }
        #expect(budget.available == 10)
    }
}
