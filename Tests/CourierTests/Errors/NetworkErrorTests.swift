import Courier
import Foundation
import HTTPTypes
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The seed's messages and log format, and the error's conveniences.
@Suite("NetworkError")
struct NetworkErrorTests {
    @Test("Korean messages use the seed's wording")
    func korean() {
        #expect(NetworkError.taskCancelled.userMessage(in: .korean) == "작업이 취소됐어요")
        for error in [
            NetworkError.notFound(404), .invalidURL, .serverError(500), .quotaExceeded(401),
            .decodingError(.dataCorrupted(.init(codingPath: [], debugDescription: "x"))),
        ] {
            #expect(error.userMessage(in: .korean) == "데이터를 불러오지 못했어요\n잠시 후 다시 시도해 주세요")
        }
        #expect(NetworkError.taskCancelled.userMessage(in: .english) == "The task was cancelled.")
        #expect(NetworkError.modelRefusal("현재 정보를 제공하기 어렵습니다").userMessage(in: .korean) == "현재 정보를 제공하기 어렵습니다")
    }

    @Test("log lines in the seed's format")
    func logFormat() {
        #expect(
            NetworkError.notFound(404).log(file: "Project/MyService.swift", function: "fetchData")
                == #"notFound(404)-"Project/MyService.swift#fetchData""#)
        #expect(NetworkError.taskCancelled.log(file: "A.swift", function: "f()") == #"taskCancelled-"A.swift#f()""#)
        let decoding = NetworkError.decodingError(
            .typeMismatch(String.self, .init(codingPath: [], debugDescription: "Expected String but found \"Int\" instead")))
        #expect(
            decoding.log(file: "NetworkClient.swift", function: "request(url:)")
                == #"decodingError("Expected String but found \"Int\" instead")-"NetworkClient.swift#request(url:)""#)
        #expect(
            NetworkError.networkError(URLError(.cannotConnectToHost)).log(file: "a", function: "b")
                == #"networkError(-1004 cannotConnectToHost)-"a#b""#)
        #expect(NetworkError.invalidURL.log().hasPrefix("invalidURL-\"CourierTests/NetworkErrorTests.swift#"))
    }

    @Test("families and status codes")
    func families() {
        #expect(NetworkError.serverError(502).family == .server)
        #expect(NetworkError.notFound(404).statusCode == 404)
        #expect(NetworkError.taskCancelled.family == .cancelled)
        #expect(NetworkError.networkError(URLError(.timedOut)).family == .transport)
        #expect(NetworkError.fileError(.diskFull(path: "/x")).family == .file)
        #expect(Set(NetworkError.Family.allCases.map(\.rawValue)).count == 8)
    }

    @Test("Retry-After as seconds or an HTTP date")
    func retryAfter() {
        var seconds = HTTPResponse(status: .tooManyRequests)
        seconds.headerFields[.retryAfter] = "12"
        #expect(seconds.retryAfterSeconds == 12)
        var date = HTTPResponse(status: .tooManyRequests)
        date.headerFields[.retryAfter] = "Wed, 21 Oct 2015 07:28:00 GMT"
        #expect(date.retryAfterSeconds == 0)
        var junk = HTTPResponse(status: .tooManyRequests)
        junk.headerFields[.retryAfter] = "soon"
        #expect(junk.retryAfterSeconds == nil)
    }
}
