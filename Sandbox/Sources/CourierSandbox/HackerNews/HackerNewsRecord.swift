/// One item as the stand-in serves it: the API's fields, absent ones left out of the JSON.
struct HackerNewsRecord: Encodable, Sendable {
    var id: Int
    var deleted: Bool?
    var type: String
    var by: String?
    var time: Int
    var text: String?
    var dead: Bool?
    var parent: Int?
    var poll: Int?
    var kids: [Int]?
    var url: String?
    var score: Int?
    var title: String?
    var parts: [Int]?
    var descendants: Int?
}

/// A user as the stand-in serves it.
struct HackerNewsUserRecord: Encodable, Sendable {
    var id: String
    var created: Int
    var karma: Int
    var about: String?
    var submitted: [Int]?
}

/// `updates.json` as the stand-in serves it.
struct HackerNewsUpdatesRecord: Encodable, Sendable {
    var items: [Int]
    var profiles: [String]
}
