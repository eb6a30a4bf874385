import Courier
import Foundation
import Testing

@testable import CourierConcurrency

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct FetchStateTests {
    @Test func conveniencesReportTheCase() {
        let loading = FetchState<Int>.loading
        let success = FetchState<Int>.success(7)
        let cancelled = FetchState<Int>.cancel(.taskCancelled)
        let failed = FetchState<Int>.failure(.notFound(404))

        #expect(loading.isLoading && !loading.isFinished && loading.value == nil && loading.error == nil)
        #expect(success.value == 7 && success.isFinished && success.error == nil)
        #expect(cancelled.isCancelled && cancelled.error == .taskCancelled && cancelled.isFinished)
        #expect(failed.isFailure && failed.error == .notFound(404) && !failed.isCancelled)
    }

    @Test func errorsMapToVisibleStates() {
        #expect(FetchState<Int>(error: CancellationError()) == .cancel(.taskCancelled))
        #expect(FetchState<Int>(error: URLError(.cancelled)) == .cancel(.taskCancelled))
        #expect(FetchState<Int>(error: NetworkError.taskCancelled) == .cancel(.taskCancelled))
        #expect(FetchState<Int>(error: NetworkError.serverError(500)) == .failure(.serverError(500)))
        #expect(FetchState<Int>(error: URLError(.timedOut)) == .failure(.networkError(URLError(.timedOut))))
        struct Odd: Error {}
        #expect(FetchState<Int>(error: Odd()) == .failure(.networkError(URLError(.unknown))))
    }

    @Test func catchingAndResultInitialisers() async {
        let ok = await FetchState { 3 }
        #expect(ok == .success(3))
        let failed = await FetchState<Int> { throw NetworkError.invalidResponse }
        #expect(failed == .failure(.invalidResponse))
        #expect(FetchState(result: Result<Int, NetworkError>.failure(.taskCancelled)) == .cancel(.taskCancelled))
    }

    @Test func mapKeepsNonSuccessStatesAndCatches() {
        #expect(FetchState.success(2).map { $0 * 10 } == .success(20))
        #expect(FetchState<Int>.cancel(.taskCancelled).map { $0 * 10 } == .cancel(.taskCancelled))
        #expect(FetchState<Int>.loading.map(String.init) == .loading)
        let thrown = FetchState.success(1).map { _ -> Int in throw NetworkError.encodingError }
        #expect(thrown == .failure(.encodingError))
    }
}
