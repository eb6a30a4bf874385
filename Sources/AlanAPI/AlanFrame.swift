public import Courier
import CourierLLM
import CourierLLMAdapter
import Foundation

/// The data of one `event: response` frame of the Alan stream, e.g.
/// `{'type': 'continue', 'data': {'content': '안'}}` — a Python dict literal, decoded through
/// CourierLLM's tolerant decoding.
public struct AlanFrame: Decodable, Sendable, Equatable {
    /// How ``AlanClient/stream(_:task:)`` decodes a frame's data: the whole data as one dict
    /// first (a dict quoted in a token's text is never taken for the frame), else CourierLLM's
    /// tolerant search with the frame's schema, learned once (not per frame: a long answer is
    /// thousands of frames).
    public static let decoding: some ResponseDecoding = FrameDecoding()

    /// The frame's decoding (``decoding``).
    struct FrameDecoding: ResponseDecoding {
        static let tolerant = LLMResponseDecoding(schema: JSONSchema.inferred(from: AlanFrame.self))

        func decode<T: Decodable>(_ type: T.Type, from body: Data, using decoder: JSONDecoder) throws(NetworkError) -> T {
            if let frame = LLMAnswerDecoder(decoder: decoder).decodeWhole(T.self, from: String(decoding: body, as: UTF8.self)) {
                return frame
            }
            return try Self.tolerant.decode(T.self, from: body, using: decoder)
        }
    }

    /// The payload of a frame; which field is set depends on ``type``.
    public struct Payload: Decodable, Sendable, Equatable {
        /// A progress sentence (`action` frames).
        public var speak: String?
        /// The action's name (`action` frames).
        public var name: String?
        /// One token (`continue`) or the whole answer (`complete`).
        public var content: String?

        /// Creates a payload.
        public init(speak: String? = nil, name: String? = nil, content: String? = nil) {
            self.speak = speak
            self.name = name
            self.content = content
        }
    }

    /// `action`, `continue` or `complete`.
    public var type: String
    /// The frame's payload.
    public var data: Payload

    /// Creates a frame.
    public init(type: String, data: Payload) {
        self.type = type
        self.data = data
    }

    /// The frame as a stream element, or nil for a type this client does not know.
    public var event: AlanStreamEvent? {
        switch type {
        case "action": data.speak.map(AlanStreamEvent.progress)
        case "continue": data.content.map(AlanStreamEvent.token)
        case "complete": data.content.map(AlanStreamEvent.complete)
        default: nil
        }
    }
}

/// One element of ``AlanClient/stream(_:task:)``.
///
/// ```swift
/// for try await event in alan.stream("비트코인 전망") {
///     switch event {
///     case .progress(let sentence): status = sentence
///     case .token(let token): text += token
///     case .complete(let answer): text = answer   // the whole answer: replace, do not append
///     }
/// }
/// ```
public enum AlanStreamEvent: Sendable, Equatable {
    /// A progress sentence ("질문의 의도를 이해하고 있어요.").
    case progress(String)
    /// The next piece of the answer.
    case token(String)
    /// The whole answer, once; it repeats the tokens, so it replaces them.
    case complete(String)
}
