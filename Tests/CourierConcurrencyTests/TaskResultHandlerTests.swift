import Courier
import Foundation
import Testing

@testable import CourierConcurrency

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@MainActor
final class CoinReportModel {
    var overview: FetchState<String> = .loading
    var news: [String] = []
    var updates = 0
}

@Suite struct TaskResultHandlerTests {
    struct Report: Sendable {
        var overview: String
        var articles: [String]
    }

    @MainActor
    @Test func successTransformsUpdatesThenRunsSideEffectOnTheCallersActor() async {
        let model = CoinReportModel()
        let task = Task<Report, any Error> { Report(overview: "ETH", articles: ["a", "b"]) }
        let state = await TaskResultHandler.apply(
            of: task,
            using: { $0.overview.lowercased() },
            update: {
                model.overview = $0
                model.updates += 1
            },
            sideEffect: { model.news = $0.articles }
        )
        #expect(state == .success("eth"))
        #expect(model.overview == .success("eth"))
        #expect(model.news == ["a", "b"])
        #expect(model.updates == 1)
    }

    @MainActor
    @Test func anyErrorEndsInAVisibleStateNeverLoading() async {
        struct NotANetworkError: Error {}
        let cases: [(any Error, FetchState<String>)] = [
            (NotANetworkError(), .failure(.networkError(URLError(.unknown)))),
            (NetworkError.quotaExceeded(401), .failure(.quotaExceeded(401))),
            (CancellationError(), .cancel(.taskCancelled)),
            (URLError(.cancelled), .cancel(.taskCancelled)),
            (
                DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "bad")),
                .failure(.decodingError(.dataCorrupted(.init(codingPath: [], debugDescription: "bad"))))
            ),
        ]
        for (error, expected) in cases {
            let model = CoinReportModel()
            var sideEffects = 0
            await TaskResultHandler.apply(
                of: { () async throws -> String in throw error },
                update: { model.overview = $0 },
                sideEffect: { _ in sideEffects += 1 }
            )
            #expect(model.overview == expected)
            #expect(!model.overview.isLoading)
            #expect(sideEffects == 0)
        }
    }

    @Test func aThrowingTransformIsAFailure() async {
        var seen: FetchState<Int> = .loading
        await TaskResultHandler.apply(
            of: { "not a number" },
            using: { text -> Int in
                guard let number = Int(text) else { throw NetworkError.invalidResponse }
                return number
            },
            update: { seen = $0 }
        )
        #expect(seen == .failure(.invalidResponse))
    }

    @Test func nilOrCancelledTaskEndsInCancel() async {
        let missing: Task<Int, any Error>? = nil
        #expect(await TaskResultHandler.apply(of: missing, update: { _ in }) == .cancel(.taskCancelled))

        // The operation ignores cancellation and returns a value anyway: still shown as cancelled.
        let gate = Gate()
        let stubborn = Task<Int, any Error> {
            try? await gate.wait()
            return 42
        }
        stubborn.cancel()
        await gate.open()
        #expect(await TaskResultHandler.apply(of: stubborn, update: { _ in }) == .cancel(.taskCancelled))
    }
}
