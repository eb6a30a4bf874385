// Mirrors: Sources/Courier/Courier.docc/Articles/many-requests-at-once.md
//
// The article's code, line for line (DocsSyncTests checks that every sample is here).
// SampleRunTests runs `fanOut(client:)` and `fetchEveryPage(client:)` against the sandbox's
// `/items`; the model and the reveal are compiled only.

import Courier
import CourierConcurrency
import Foundation

struct Item: Decodable, Sendable {
    let id: Int
    let title: String
}

struct ItemsPage: Decodable, Sendable {
    let total: Int
    let offset: Int
    let items: [Item]
}

enum ItemsAPI: Endpoint {
    /// `GET /items?offset=&limit=` → `ItemsPage`
    case page(offset: Int, limit: Int)

    var baseURL: URL { URL(string: "https://api.example.com")! }
    var path: String { "/items" }
    var method: HTTPMethod { .get }
    var task: HTTPTask {
        switch self {
        case .page(let offset, let limit): .requestParameters(["offset": offset, "limit": limit], encoding: .url)
        }
    }
}

@MainActor final class PagesModel {
    var first: FetchState<ItemsPage> = .loading
    var second: FetchState<ItemsPage> = .loading
    private var firstTask: Task<ItemsPage, any Error>?

    func load(with client: NetworkClient) async {
        firstTask = Task { try await client.request(ItemsAPI.page(offset: 0, limit: 20), as: ItemsPage.self) }
        await TaskResultHandler.apply(of: firstTask, update: { self.first = $0 })
    }
}

enum ManyRequestsArticle {
    static func fanOut(client: NetworkClient) async throws {
        let offsets = Array(stride(from: 0, to: 1000, by: 100))
        let pages = try await offsets.concurrentMap(limit: 4) { offset in
            try await client.request(ItemsAPI.page(offset: offset, limit: 100), as: ItemsPage.self)
        }
        print(pages.flatMap(\.items).count)   // 1000, in offset order

        let arriving = offsets.mergedValues(limit: 4) { offset in
            try await client.request(ItemsAPI.page(offset: offset, limit: 100), as: ItemsPage.self)
        }
        for try await soFar in arriving.accumulated(sortedBy: { $0.offset < $1.offset }) {
            print(soFar.count, soFar.first?.offset ?? 0)   // 1…10 pages so far, always in order
        }
    }

    static func fetchEveryPage(client: NetworkClient) async throws -> PaginationResult<Item> {
        let paginator = Paginator<Item>(pageSize: 1000, maxConcurrentPages: 4)
        let result = try await paginator.fetchAll { page in
            let answer = try await client.request(ItemsAPI.page(offset: page.offset, limit: page.count), as: ItemsPage.self)
            return Page(items: answer.items, total: answer.total)
        }
        print(result.items.count, result.isComplete)   // 10000 true
        return result
    }

    static func reveal(client: NetworkClient, model: PagesModel) async {
        let reveal = OrderedReveal(sections: [
            RevealSection("first", operation: { try await client.request(ItemsAPI.page(offset: 0, limit: 20), as: ItemsPage.self) }) { state in
                await MainActor.run { model.first = state }
            },
            RevealSection("second", operation: { try await client.request(ItemsAPI.page(offset: 20, limit: 20), as: ItemsPage.self) }) { state in
                await MainActor.run { model.second = state }
            },
        ])
        await reveal.run()             // returns when both are revealed or cancelled
        await reveal.retry("second")   // from the section's retry button; cancel("second") from its cancel button
    }
}
