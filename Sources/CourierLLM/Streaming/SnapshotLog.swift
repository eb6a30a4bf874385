/// The changes to the visible value of one streaming candidate, appended as the parser makes
/// them: a snapshot is a mark in this log (two counts), taken in constant time without copying
/// anything, and replayed into a ``SnapshotNode`` only when someone reads it.
///
/// The parser logs what ``StreamingParser`` shows and nothing else: containers inside an orphan
/// and object keys still being read are not logged.
struct SnapshotLog {
    enum Event {
        /// A container opens inside the innermost open one (or at the top).
        case push(isObject: Bool)
        /// The innermost object's key for the member being read (nil: none).
        case key(String?)
        /// A complete value joins the innermost container (under its key), or is the result.
        case append(JSONValue)
        /// The innermost container is dropped (its value, if kept, follows as an `append`).
        case pop
        /// A string value opens; its bytes so far are the text log's bytes from this offset.
        case openString(Int)
    }

    /// The storage of both logs, in one object so that a mark retains one reference; replaced
    /// when either log moves to larger storage.
    final class Generation: Sendable {
        let events: AppendLog<Event>.Storage
        let text: AppendLog<UInt8>.Storage

        init(events: AppendLog<Event>.Storage, text: AppendLog<UInt8>.Storage) {
            self.events = events
            self.text = text
        }
    }

    private(set) var events = AppendLog<Event>()
    private(set) var text = AppendLog<UInt8>(capacity: 256)
    private var generation: Generation
    /// How many containers are open in the logged value.
    private var depth = 0
    /// A string or a complete value was logged at the top.
    private var hasTopValue = false

    init() {
        generation = Generation(events: events.storage, text: text.storage)
    }

    /// Grows whenever the visible value may have changed.
    var changeCount: Int { events.count + text.count }

    var mark: SnapshotMark {
        SnapshotMark(generation: generation, eventCount: events.count, textCount: text.count)
    }

    /// Whether a mark now shows a value (what ``SnapshotMark/node`` gives is not nil).
    var showsValue: Bool { depth > 0 || hasTopValue }

    mutating func log(_ event: Event) {
        switch event {
        case .push: depth += 1
        case .pop: depth -= 1
        case .append, .openString: if depth == 0 { hasTopValue = true }
        case .key: break
        }
        events.append(event)
        if events.storage !== generation.events { generation = Generation(events: events.storage, text: text.storage) }
    }

    /// ``logText(_:)`` for one byte.
    @inline(__always)
    mutating func logText(_ byte: UInt8) {
        text.append(byte)
        if text.storage !== generation.text { generation = Generation(events: events.storage, text: text.storage) }
    }

    mutating func logText(_ bytes: UnsafeBufferPointer<UInt8>) {
        text.append(contentsOf: bytes)
        if text.storage !== generation.text { generation = Generation(events: events.storage, text: text.storage) }
    }

    /// The text logged since `start`: a string value that was shown, once it ends.
    func string(from start: Int) -> String {
        String(decoding: text.storage.prefix(text.count)[start...], as: UTF8.self)
    }
}

extension SnapshotLog: StringSink {
    /// The bytes of a string that is shown, as ``RepairRules/readString(_:_:_:into:)`` reads them.
    mutating func appendText(_ bytes: [UInt8], _ range: Range<Int>) {
        bytes.withUnsafeBufferPointer { buffer in logText(UnsafeBufferPointer(rebasing: buffer[range])) }
    }

    @inline(__always)
    mutating func appendText(_ byte: UInt8) {
        logText(byte)
    }
}

/// A snapshot as a place in a ``SnapshotLog``: valid and unchanged however the log grows later.
struct SnapshotMark: Sendable {
    let generation: SnapshotLog.Generation
    let eventCount: Int
    let textCount: Int

    /// The value at this mark, or nil when nothing of it is shown.
    var node: SnapshotNode? {
        struct Frame {
            var isObject: Bool
            var members: [JSONMember] = []
            var elements: [JSONValue] = []
            var key: String?
        }
        var stack: [Frame] = []
        var openString: Int?
        for event in generation.events.prefix(eventCount) {
            switch event {
            case .push(let isObject):
                stack.append(Frame(isObject: isObject))
                openString = nil
            case .key(let key):
                stack[stack.count - 1].key = key
            case .append(let value):
                openString = nil
                guard !stack.isEmpty else { return .complete(value) }
                let top = stack.count - 1
                if stack[top].isObject {
                    stack[top].members.append(JSONMember(key: stack[top].key ?? "", value: value))
                    stack[top].key = nil
                } else {
                    stack[top].elements.append(value)
                }
            case .pop:
                stack.removeLast()
                openString = nil
            case .openString(let start):
                openString = start
            }
        }
        var node: SnapshotNode?
        if let openString { node = .openString(Array(generation.text.prefix(textCount)[openString...])) }
        for frame in stack.reversed() {
            if frame.isObject {
                node = .openObject(frame.members, lastKey: frame.key, last: frame.key == nil ? nil : node)
            } else {
                node = .openArray(frame.elements, last: node)
            }
        }
        return node
    }
}
