import Foundation
import Testing

/// The code samples in the DocC articles are the code in this target, the way kean/Get's
/// `CodeSamplesTests` keeps its samples honest: every ```` ```swift ```` block of every article under
/// `Sources/*/*.docc` must appear, line for line and in one piece, in a test file of this target
/// that names the article in a `// Mirrors:` line. Lines are compared without their indentation
/// (a sample sits inside a function here); `import` lines and blank lines are skipped. A block
/// whose first line is `// Package.swift` is a manifest excerpt and cannot be compiled here.
@Suite("DocC samples are compiled code")
struct DocsSyncTests {
    /// The package's root: three levels above this file.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("every Swift sample of every article is in the test file that mirrors the article")
    func everySampleIsCompiled() throws {
        let mirrors = try Self.mirrors()
        let articles = try Self.articles()
        #expect(!articles.isEmpty, "no DocC article found under \(Self.root.path)/Sources")
        for article in articles {
            let blocks = try Self.swiftBlocks(in: article).filter { $0.first != "// Package.swift" }
            guard !blocks.isEmpty else { continue }
            let relative = Self.relativePath(of: article)
            guard let code = mirrors[relative] else {
                Issue.record("\(relative) has \(blocks.count) Swift sample(s) but no test file says `// Mirrors: \(relative)`")
                continue
            }
            for block in blocks where !Self.contains(code, block) {
                let missing = block.first { line in !code.contains(line) } ?? block.first ?? ""
                Issue.record("\(relative): a sample is not in its mirror file in one piece; first line not found: \(missing)")
            }
        }
    }

    @Test("every `// Mirrors:` line names an article that exists")
    func mirrorsNameRealArticles() throws {
        for path in try Self.mirrors().keys {
            #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path), "\(path)")
        }
    }

    /// Article path → the normalised lines of every test file that mirrors it.
    static func mirrors() throws -> [String: [String]] {
        let folder = root.appendingPathComponent("Tests/CourierDocsTests")
        var result: [String: [String]] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let lines = normalised(text.components(separatedBy: "\n"))
            for line in lines where line.hasPrefix("// Mirrors: ") {
                result[String(line.dropFirst("// Mirrors: ".count)), default: []] += lines
            }
        }
        return result
    }

    /// Every `.md` file inside a `.docc` catalog under `Sources/`.
    static func articles() throws -> [URL] {
        let sources = root.appendingPathComponent("Sources")
        guard let walker = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }
            .filter { $0.pathExtension == "md" && $0.path.contains(".docc/") }
            .sorted { $0.path < $1.path }
    }

    /// The normalised lines of each ```` ```swift ```` block (fences of three or more backticks).
    static func swiftBlocks(in article: URL) throws -> [[String]] {
        var blocks: [[String]] = []
        var open: (fence: String, isSwift: Bool, lines: [String])?
        for line in try String(contentsOf: article, encoding: .utf8).components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let block = open {
                if trimmed == block.fence {
                    if block.isSwift { blocks.append(normalised(block.lines)) }
                    open = nil
                } else {
                    open?.lines.append(line)
                }
            } else if trimmed.hasPrefix("```") {
                let fence = String(trimmed.prefix { $0 == "`" })
                let info = trimmed.dropFirst(fence.count).trimmingCharacters(in: .whitespaces)
                open = (fence, info == "swift", [])
            }
        }
        return blocks
    }

    /// Lines without indentation, blank lines and `import` lines.
    static func normalised(_ lines: [String]) -> [String] {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("import ") && !$0.hasPrefix("@testable import ") }
    }

    /// Whether `block` occurs in `code` as consecutive lines.
    static func contains(_ code: [String], _ block: [String]) -> Bool {
        guard !block.isEmpty, code.count >= block.count else { return block.isEmpty }
        for start in 0...(code.count - block.count) where code[start] == block[0] {
            if Array(code[start..<(start + block.count)]) == block { return true }
        }
        return false
    }

    static func relativePath(of url: URL) -> String {
        String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
    }
}
