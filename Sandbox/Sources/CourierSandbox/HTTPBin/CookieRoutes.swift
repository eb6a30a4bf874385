import Foundation
import HTTPTypes
import Hummingbird

/// httpbin-style cookie routes, for a client's cookie jar.
///
/// | route | answer |
/// |---|---|
/// | `GET /cookies` | `{"cookies": {name: value}}`: the `Cookie` fields received, parsed |
/// | `GET /cookies/set?name=value&…` | `302` to `/cookies`, a `Set-Cookie: name=value; Path=/` for each pair |
/// | `GET /cookies/delete?name&…` | `302` to `/cookies`, `Set-Cookie: name=; Max-Age=0; Path=/` for each name |
/// | `GET /cookies/raw?set=…&set=…&status=200&location=…` | each `set` value verbatim as a `Set-Cookie` field (domain, path, expiry attributes…), with `status` (a 3xx with `location`) |
struct CookieRoutes {
    func register(on router: Router<SandboxRequestContext>) {
        router.get("/cookies") { request, _ in
            var cookies: [String: String] = [:]
            for field in request.headers[values: .cookie] {
                for pair in field.split(separator: ";") {
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    let name = parts[0].trimmingCharacters(in: .whitespaces)
                    guard !name.isEmpty else { continue }
                    cookies[name] = parts.count > 1 ? String(parts[1]) : ""
                }
            }
            return JSONResponse.make(["cookies": cookies])
        }
        router.get("/cookies/set") { request, _ in
            var headers: HTTPFields = [.location: "/cookies"]
            for (name, value) in request.uri.queryParameters {
                headers.append(HTTPField(name: .setCookie, value: "\(name)=\(value); Path=/"))
            }
            return Response(status: .found, headers: headers)
        }
        router.get("/cookies/delete") { request, _ in
            var headers: HTTPFields = [.location: "/cookies"]
            for (name, _) in request.uri.queryParameters {
                headers.append(HTTPField(name: .setCookie, value: "\(name)=; Max-Age=0; Path=/"))
            }
            return Response(status: .found, headers: headers)
        }
        router.get("/cookies/raw") { request, _ in
            var headers = HTTPFields()
            for (name, value) in request.uri.queryParameters where name == "set" {
                headers.append(HTTPField(name: .setCookie, value: String(value)))
            }
            let query = QueryReader(request)
            let status = try query.integer("status", in: 200...399, default: 200)
            if let location = query.text("location") { headers[.location] = location }
            return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: .init(string: "{}")))
        }
    }
}
