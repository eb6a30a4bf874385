import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOSSL
import Testing

@testable import CourierAsyncHTTPClient

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// SwiftNIO's and AsyncHTTPClient's errors, each built as its library makes it, mapped by type to
/// the `URLError` code URLSession would give.
@Suite("NIO error mapping")
struct NIOErrorMappingTests {
    func code(_ error: any Error) -> URLError.Code? {
        NIOErrorMapping.urlError(for: error)?.code
    }

    @Test("AsyncHTTPClient's errors: timeouts, cut connections, cancellation, bad URLs, redirects")
    func httpClientErrors() {
        #expect(code(HTTPClientError.connectTimeout) == .timedOut)
        #expect(code(HTTPClientError.deadlineExceeded) == .timedOut)
        #expect(code(HTTPClientError.remoteConnectionClosed) == .networkConnectionLost)
        #expect(code(HTTPClientError.cancelled) == .cancelled)
        #expect(code(HTTPClientError.invalidURL) == .badURL)
        #expect(code(HTTPClientError.redirectCycleDetected) == .httpTooManyRedirects)
        #expect(code(HTTPClientError.proxyAuthenticationRequired) == .userAuthenticationRequired)
    }

    @Test("SwiftNIO's channel, socket and parser errors")
    func nioErrors() {
        #expect(code(ChannelError.connectTimeout(.seconds(1))) == .timedOut)
        #expect(code(ChannelError.eof) == .networkConnectionLost)
        #expect(code(ChannelError.ioOnClosedChannel) == .networkConnectionLost)
        #expect(code(IOError(errnoCode: ECONNREFUSED, reason: "connect")) == .cannotConnectToHost)
        #expect(code(IOError(errnoCode: ETIMEDOUT, reason: "connect")) == .timedOut)
        #expect(code(IOError(errnoCode: ECONNRESET, reason: "read")) == .networkConnectionLost)
        #expect(code(SocketAddressError.unsupported) == .cannotFindHost)
        #expect(code(HTTPParserError.invalidEOFState) == .networkConnectionLost)
        #expect(code(HTTPParserError.invalidChunkSize) == .cannotParseResponse)
    }

    @Test("TLS errors: swift-nio-ssl's own types, whatever their reason, are a failed secure connection")
    func tlsErrors() {
        #expect(code(NIOSSLError.handshakeFailed(.sslError([]))) == .secureConnectionFailed)
        #expect(code(NIOSSLError.uncleanShutdown) == .secureConnectionFailed)
        #expect(code(NIOSSLError.unableToValidateCertificate) == .secureConnectionFailed)
        #expect(code(NIOSSLExtraError.failedToValidateHostname) == .secureConnectionFailed)
        #expect(code(NIOTLSUnwrappingError.alreadyClosed) == .secureConnectionFailed)
        #expect(code(BoringSSLError.syscallError) == .secureConnectionFailed)
    }

    @Test("a decompression error (a bomb over the ratio, a corrupt stream) cannot be decoded")
    func decompressionErrors() {
        #expect(code(NIOHTTPDecompression.DecompressionError.limit) == .cannotDecodeContentData)
        #expect(code(NIOHTTPDecompression.DecompressionError.inflationError(-3)) == .cannotDecodeContentData)
        #expect(code(NIOHTTPDecompression.ExtraDecompressionError.truncatedData) == .cannotDecodeContentData)
    }

    @Test("a URLError passes through; an error of another library, even one named like NIO's, is not mapped")
    func othersUntouched() {
        struct NIOSSLLookalikeTLSError: Error {}
        struct DNSResolverFailure: Error {}
        #expect(code(URLError(.notConnectedToInternet)) == .notConnectedToInternet)
        #expect(code(NIOSSLLookalikeTLSError()) == nil)
        #expect(code(DNSResolverFailure()) == nil)
        #expect(code(CancellationError()) == nil)
    }
}
