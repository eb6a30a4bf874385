import AccountsAPI
import Courier
import CourierConcurrency
import CourierLLM
import CourierSandbox
import CourierTesting
import Foundation
import HTTPTypes
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs the article samples that need no outside network — against stubs or the sandbox on an
/// ephemeral loopback port — and checks that what their comments say they print is what happens.
@Suite("Article samples do what the articles say")
struct SampleRunTests {
    @Test("Getting Started: the search is percent-encoded; the 500's message and log line read as shown")
    func gettingStarted() throws {
        #expect(try UserAPI.search(name: "김민수").httpRequest().path == "/api/v1/users?name=%EA%B9%80%EB%AF%BC%EC%88%98")
        let error = NetworkError.serverError(500)
        #expect(error.userMessage(in: .english) == "Couldn't load the data.\nPlease try again in a moment.")
        #expect(error.log(file: "App/UserScreen.swift", function: "load()") == #"serverError(500)-"App/UserScreen.swift#load()""#)
        #expect(CancellationError().isTaskCancellation && NetworkError.taskCancelled.isTaskCancellation)
    }

    @Test("Define an API: every body form arrives at the sandbox's /echo as written")
    func defineAnAPI() async throws {
        #expect(PercentEncoding.encode("서울 문화+축제") == "%EC%84%9C%EC%9A%B8%20%EB%AC%B8%ED%99%94%2B%EC%B6%95%EC%A0%9C")
        try await DefineAnAPI.bindToAnyServer()
        let photo = FileManager.default.temporaryDirectory.appendingPathComponent("courier-docs-\(UUID().uuidString).jpg")
        try Data(repeating: 0xFF, count: 3000).write(to: photo)
        defer { try? FileManager.default.removeItem(at: photo) }
        try await SandboxServer.withRunning { sandbox in
            let client = NetworkClient(configuration: .init(baseURL: sandbox.baseURL.appending(path: "echo")))
            let list: EchoAnswer = try await client.request(PostsAPI.list(page: 1, tags: ["swift", "서울"]))
            #expect(list.method == "GET" && list.rawPath == "/echo/posts")
            #expect(list.queryValue("page") == ["1"] && list.queryValue("tag") == ["swift", "서울"])
            let login: EchoAnswer = try await client.request(PostsAPI.login(username: "minsu", password: "a+b&c=d 서울"))
            #expect(login.form?.contains(["password", "a+b&c=d 서울"]) == true)
            let attach: EchoAnswer = try await client.request(PostsAPI.attach(id: 3, photo: photo))
            #expect(attach.rawPath == "/echo/posts/3/photos")
            #expect(attach.parts?.first?.name == "photo" && attach.parts?.first?.length == 3000)
            let publish: EchoAnswer = try await client.request(PostsAPI.publish(id: 7, notify: true, NewPost(title: "한강", body: "+&=")))
            #expect(publish.method == "PUT" && publish.queryValue("notify") == ["true"])
            #expect(publish.body == #"{"body":"+&=","title":"한강"}"# || publish.body == #"{"title":"한강","body":"+&="}"#)
        }
        #expect(PostsAPI.login(username: "minsu", password: "pw-1234").secrets == ["pw-1234"])
        #expect(PostsAPI.login(username: "minsu", password: "pw-1234").traits.authorization == .none)
        #expect(PostsAPI.publish(id: 1, notify: false, NewPost(title: "", body: "")).traits.isIdempotent(.put))
    }

    @Test("Errors: message(for:), the Seoul and envelope mappings, an error body, the log line")
    func errors() async throws {
        #expect(message(for: .taskCancelled) == nil)
        #expect(message(for: .networkError(URLError(.notConnectedToInternet))) == "You are offline.")
        #expect(message(for: .rateLimited(retryAfter: 5)) == "Too many requests. Try again in 5 s.")
        #expect(message(for: .serverError(502)) == "The service is down for a moment.")

        let ok = HTTPResponse(status: .ok)
        #expect(StatusMapping.seoul.error(for: ok, body: Data(#"{"RESULT":{"CODE":"INFO-100","MESSAGE":"인증키가 유효하지 않습니다."}}"#.utf8)) == .invalidAPIKey)
        #expect(StatusMapping.seoul.error(for: ok, body: Data(#"{"culturalEventInfo":{"list_total_count":0}}"#.utf8)) == nil)
        #expect(StatusMapping.seoul.error(for: HTTPResponse(status: .notFound), body: Data()) == .notFound(404))
        #expect(AlanAPI.question("q").statusMapping.error(for: HTTPResponse(status: .unauthorized), body: Data()) == .quotaExceeded(401))

        struct Order: Decodable, Sendable { let id: Int }
        struct Listing: Decodable, Sendable { let items: [Line] }
        struct Line: Decodable, Sendable { let title: String }
        let stub = StubTransport(onUnmatched: { Issue.record("\($0)") })
        try stub.on(ShopAPI.order(id: 1), .json(#"{"success":true,"code":"OK","data":{"id":1}}"#))
        try stub.on(ShopAPI.order(id: 2), .json(#"{"success":false,"code":"CONFLICT","message":"품절된 상품이에요"}"#, status: 409))
        try stub.on(UserAPI.user(id: 7), .json(#"{"success":false,"code":"FORBIDDEN","message":"다른 사용자예요"}"#, status: 403))
        try stub.on(UserAPI.search(name: "broken"), .json(#"{"items":[{"title":"a"},{"title":"b"},{"title":"c"},{"title":4}]}"#))
        let client = NetworkClient(transport: stub)
        #expect(try await client.request(ShopAPI.order(id: 1), as: Order.self).id == 1)
        await #expect(throws: NetworkError.remoteError(409, "품절된 상품이에요")) {
            try await client.request(ShopAPI.order(id: 2), as: Order.self)
        }
        try await ErrorsArticle.readAnErrorBody(client: client)
        let answer = try await client.response(UserAPI.user(id: 7), validatingStatus: false)
        #expect(answer.statusCode == 403 && answer.statusError?.statusCode == 403)
        #expect(EnvelopeHead.read(answer.body)?.message == "다른 사용자예요")
        do {
            _ = try await client.request(UserAPI.search(name: "broken"), as: Listing.self)
            Issue.record("a number where a title should be decoded")
        } catch {
            #expect(error.codingPathDescription == "items[3].title")
            #expect(error.bodyExcerpt?.hasPrefix(#"{"items":["#) == true)
        }
        let notFound = NetworkError.notFound(404)
        #expect(notFound.log(file: "App/UserScreen.swift", function: "load()") == #"notFound(404)-"App/UserScreen.swift#load()""#)
        #expect(notFound.userMessage(in: .korean) == "데이터를 불러오지 못했어요\n잠시 후 다시 시도해 주세요")
    }

    @Test("Many Requests at Once: fan-out, all pages in order, FetchState and the ordered reveal against /items")
    func manyRequests() async throws {
        try await SandboxServer.withRunning { sandbox in
            let client = NetworkClient(configuration: .init(baseURL: sandbox.baseURL))
            try await ManyRequestsArticle.fanOut(client: client)
            let result = try await ManyRequestsArticle.fetchEveryPage(client: client)
            #expect(result.isComplete && result.total == 10_000)
            #expect(result.items.map(\.id) == Array(0..<10_000))

            let model = PagesModel()
            await model.load(with: client)
            #expect(await model.first.value?.items.map(\.id) == Array(0..<20))
            await MainActor.run { model.first = .loading }
            await ManyRequestsArticle.reveal(client: client, model: model)
            #expect(await model.first.value?.offset == 0)
            let deadline = ContinuousClock.now + .seconds(10)
            while await model.second.value == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            #expect(await model.second.value?.items.first?.id == 20, "the retried section ends in success")
        }
    }

    @Test("LLM Answers: the values and repair reports are the ones the article prints")
    func llmAnswers() async throws {
        let decoded = try LLMAnswersArticle.decodeAnAnswer()
        #expect(decoded.value.priceTrend == "상승" && decoded.value.reason == "ETF 자금 유입")
        #expect(decoded.report.repairs == [.strippedFence, .strippedProse, .removedTrailingComma])
        LLMAnswersArticle.refusal()
        let refusal = "현재 실시간 데이터를 가져오는 데 어려움이 있습니다."
        #expect(throws: LLMDecodingError.noJSON(modelText: refusal)) {
            try LLMAnswerDecoder().decode(CoinWeekly.self, fromAnswer: refusal)
        }
        let report = try LLMAnswersArticle.repairReport()
        #expect(report.articles == 1 && report.orphans && !report.truncated)
        #expect(report.repairs == [#"wrapped orphaned objects under "articles""#])

        let stub = StubTransport(onUnmatched: { Issue.record("\($0)") })
        let content = "```json\\n{\\\"priceTrend\\\": \\\"하락\\\", \\\"volumeChange\\\": \\\"-3%\\\", \\\"reason\\\": \\\"금리\\\",}\\n```"
        try stub.on(AlanAPI.question("비트코인 주간 동향을 JSON으로"), .json(#"{"action":{"name":"","speak":""},"content":"\#(content)"}"#))
        try stub.on(AlanAPI.question("refuse"), .json(#"{"action":{"name":"","speak":""},"content":"\#(refusal)"}"#))
        let client = NetworkClient(transport: stub)
        await LLMAnswersArticle.fromAClient(client: client)
        #expect(try await client.request(AlanAPI.question("비트코인 주간 동향을 JSON으로"), as: CoinWeekly.self).reason == "금리")
        await #expect(throws: NetworkError.modelRefusal(refusal)) {
            try await client.request(AlanAPI.question("refuse"), as: CoinWeekly.self)
        }
    }

    @Test("For Readers of the Seeds: the seminar's calls against the sandbox; extractedJSON")
    func seeds() async throws {
        try await SeedsArticle.seminarUserAPI()
        try await SandboxServer.withRunning { sandbox in
            let accounts = Accounts(server: sandbox.baseURL)
            let user = try await accounts.register(
                username: "johndoe", password: "P@ssw0rd!",
                name: "홍길동", email: "hong@example.com", age: 25)
            try await accounts.login(username: "johndoe", password: "P@ssw0rd!")
            let me = try await accounts.user()
            #expect(me.id == user.id && me.name == "홍길동")
            do {
                try await accounts.register(username: "johndoe", password: "P@ssw0rd!", name: "김철수", email: "kim@example.com", age: 30)
                Issue.record("a taken name is refused")
            } catch {
                guard case .server(let status, let code, let message, _) = error as? AccountsError else {
                    Issue.record("expected the server's own words, got \(error)")
                    return
                }
                #expect(status == 409 && code == "CONFLICT" && message == "이미 존재하는 사용자명")
            }
        }
        #expect(try weekly(from: "요약입니다. {\"priceTrend\": \"하락\", \"volumeChange\": \"-3%\", \"reason\": \"금리\"}").priceTrend == "하락")
        #expect(throws: NetworkError.modelRefusal("죄송합니다. 답할 수 없어요.")) {
            try weekly(from: "죄송합니다. 답할 수 없어요.")
        }
    }

    @Test("For Readers of the Seeds: the coin report's section ends in success, or in cancel without a task")
    @MainActor func coinReportSection() async {
        let model = CoinReportModel()
        model.weeklyTask = Task { CoinWeekly(priceTrend: "보합", volumeChange: "0%", reason: "휴장") }
        await model.updateWeeklyUI()
        #expect(model.weekly.value?.priceTrend == "보합")
        model.weeklyTask = nil
        await model.updateWeeklyUI()
        #expect(model.weekly.isCancelled && model.weekly.error == .taskCancelled)
    }
}
