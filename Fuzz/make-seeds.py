#!/usr/bin/env python3
"""Writes the committed seed corpora (Fuzz/<Harness>/seeds/) and libFuzzer dictionaries
(Fuzz/<Harness>/<Harness>.dict): realistic inputs from the seed systems and hostile ones from
issue 25. Run it again after editing; the files it writes are committed.

DiskEntryFuzz's and OutboxEntryFuzz's seeds are written by the harness with the real encoder at
each run (FUZZ_WRITE_SEEDS); here only DiskEntryFuzz's regression input and OutboxEntryFuzz's
dictionary. LLMFuzz's come from
Tests/CourierLLMTests/Fixtures/corpus.json.
"""
import os
import shutil

FUZZ = os.path.dirname(os.path.abspath(__file__))


def write(harness, seeds, words=()):
    folder = os.path.join(FUZZ, harness, "seeds")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    for index, seed in enumerate(seeds):
        data = seed.encode("utf-8", "surrogatepass") if isinstance(seed, str) else seed
        with open(os.path.join(folder, "seed-%03d" % index), "wb") as f:
            f.write(data)
    with open(os.path.join(FUZZ, harness, harness + ".dict"), "w", encoding="ascii") as f:
        f.write("# libFuzzer dictionary, written by Fuzz/make-seeds.py\n")
        for word in words:
            data = word.encode("utf-8") if isinstance(word, str) else word
            escaped = "".join(chr(b) if 0x20 <= b < 0x7F and b not in (0x22, 0x5C) else "\\x%02x" % b for b in data)
            f.write('"%s"\n' % escaped)


# --- header values: Retry-After, Cache-Control, dates, ranges, Vary, ETags (one field per line)
write("HeaderFuzz", [
    "120", "0", "  60 ", "\t7\t", "1e19", "inf", "-1", "+5", "3.5", "0x10", "99999999999999999999", "  1e308 ",
    "\uff11\uff12",  # fullwidth digits
    "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
    "sun, 06 nov 1994 08:49:37 gmt", "Wed, 31 Feb 2024 23:59:60 GMT", "Sun, 06 Nov 94 08:49:37 GMT",
    "Mon, 01 Jan 0000 00:00:00 GMT", "Fri, 31 Dec 9999 23:59:59 GMT", "Thu, 01 Jan 1970 00:00:00 UTC",
    "Tuesday, 31-Dec-69 23:59:59 GMT", "Sun Nov 16 08:49:37 1994", "Sun, 06 Nov 1994 08:49:37 GMT ",
    "public, max-age=60", 'max-age="60", no-cache="Set-Cookie, X-Token"', "max-age=99999999999999999999",
    "max-age=-1", "MAX-AGE=10, max-age=20", 'no-store,,,=,"', "max-stale", "max-stale=abc",
    "s-maxage=0, must-revalidate, immutable, stale-while-revalidate=30, stale-if-error=86400, must-understand",
    "private, min-fresh=5, only-if-cached", 'max-age="', "no-cache", "\u0000max-age=1",
    "bytes=0-99", "bytes=-500", "bytes=9500-", "bytes=0-0,-1", "bytes=99999999999999999999-", "BYTES = 5 - 3",
    "bytes=-99999999999999999999", "bytes=-0", "items=0-1", "bytes=\u0661-\u0662",
    "Accept-Encoding, Accept-Language", "*", "accept-language, *",
    '"xyzzy", W/"r2d2xxxx", "c3piozzzz"', 'W/"\u0000"',
    "text/event-stream; charset=utf-8", 'multipart/form-data; boundary="abc"',
    "max-age=60\nSun, 06 Nov 1994 08:49:37 GMT\nSun, 06 Nov 1994 08:49:37 GMT\n120\nTue, 15 Nov 1994 12:45:26 GMT\nAccept-Encoding",
    "\x05no-cache\nThu, 01 Jan 1970 00:00:00 GMT\n0\n4294967296\nSun, 06 Nov 1994 08:49:37 GMT\n*\nno-cache",
    "\x00public\n\n\nAge: 1, 2\n12, 13\n\u001b]52;c;aGVsbG8=\u0007",
    "\u001b[2J\r\n\u0085\u2028",
], [
    "max-age=", "s-maxage=", "no-cache", "no-store", "must-revalidate", "public", "private", "immutable",
    "max-stale", "min-fresh=", "only-if-cached", "must-understand", "stale-while-revalidate=", "stale-if-error=",
    "GMT", "Sun, ", "Sunday, ", "Nov", "Feb", "Dec", " 08:49:37 ", "1994", "-94", "bytes=", "W/", "*", ",", "\"",
    "Accept-Encoding", "Accept-Language", "99999999999999999999", "2147483648", "9223372036854775807",
])

# --- rate-limit headers: one `name: value` field per line, the four families (the harness parses
# at 2026-11-29T05:59:00Z, a minute before the Anthropic and GitHub resets below) and hostile values
write("RateLimitHeadersFuzz", [
    'RateLimit-Policy: "default";q=20;w=2\nRateLimit: "default";r=5;t=1',
    'RateLimit: "burst";r=0;t=3, "daily";r=100;t=3600\nRateLimit-Policy: "burst";q=10;w=3, "daily";q=1000;w=86400',
    "RateLimit: default;r=7;t=2",
    "RateLimit-Limit: 100\nRateLimit-Remaining: 9\nRateLimit-Reset: 30",
    "x-ratelimit-limit-requests: 60\nx-ratelimit-remaining-requests: 59\nx-ratelimit-reset-requests: 6m0s",
    "x-ratelimit-remaining-requests: 0\nx-ratelimit-reset-requests: 1h2m3.5s",
    "x-ratelimit-remaining-requests: 3\nx-ratelimit-reset-requests: 850ms",
    "anthropic-ratelimit-requests-limit: 50\nanthropic-ratelimit-requests-remaining: 49\nanthropic-ratelimit-requests-reset: 2026-11-29T06:00:00Z",
    "anthropic-ratelimit-requests-remaining: 0\nanthropic-ratelimit-requests-reset: 2026-11-29T15:00:00.250+09:00",
    "X-RateLimit-Limit: 5000\nX-RateLimit-Remaining: 4999\nX-RateLimit-Used: 1\nX-RateLimit-Reset: 1795932000",
    "X-RateLimit-Remaining: 0\nX-RateLimit-Reset: 1600000000",
    # hostile: huge, signed, fractional and exponent numbers; broken lists; durations that overflow
    'RateLimit: "default";r=99999999999999999999;t=99999999999999999999\nRateLimit-Policy: "default";q=-1;w=1e400',
    'RateLimit: "a";r=1;t=1;r=2, "b";r=nan;t=inf, "c\\"d";r=0;t=0, ;;, "unterminated;r=1',
    "RateLimit: a;r=1;t=1;=5;==",  # regression: a parameter `==` (or `=`) trapped in StructuredList
    'RateLimit: "x";R=1;T=1\r\nRateLimit: "y";r=2;t=2',
    "RateLimit-Remaining: +5\nRateLimit-Reset: -1",
    "x-ratelimit-remaining-requests: 1\nx-ratelimit-reset-requests: 9999999999999999999h9999999999999999999m1.9999999999999s",
    "x-ratelimit-remaining-requests: 1\nx-ratelimit-reset-requests: 1.5\u00b5s2us3ns0.000000001h",
    "x-ratelimit-remaining-requests: 1\nx-ratelimit-reset-requests: 0",
    "x-ratelimit-remaining-requests: 1\nx-ratelimit-reset-requests: -6m",
    "anthropic-ratelimit-requests-remaining: 1\nanthropic-ratelimit-requests-reset: 9999-12-31T23:59:60.999999999999-23:59",
    "anthropic-ratelimit-requests-remaining: 1\nanthropic-ratelimit-requests-reset: 0000-02-31T00:00:00Z",
    "anthropic-ratelimit-requests-remaining: 1\nanthropic-ratelimit-requests-reset: 2026-11-29t06:00:00.Z",
    "X-RateLimit-Remaining: 1\nX-RateLimit-Reset: 99999999999999999999",
    "X-RateLimit-Remaining: 1\nX-RateLimit-Reset: 1795932000.5",
    "X-RateLimit-Remaining:\t 7 \t\nX-RateLimit-Reset:  1795932060",
    "\u0000RateLimit: \"\u00e9\";r=1;t=1\n: no name\nno colon\n\n",
])
with open(os.path.join(FUZZ, "RateLimitHeadersFuzz", "RateLimitHeadersFuzz.dict"), "w", encoding="ascii") as f:
    f.write("# libFuzzer dictionary, written by Fuzz/make-seeds.py\n")
    for word in ["RateLimit: ", "RateLimit-Policy: ", "RateLimit-Remaining: ", "RateLimit-Reset: ", "RateLimit-Limit: ",
                 "x-ratelimit-remaining-requests: ", "x-ratelimit-reset-requests: ", "x-ratelimit-limit-requests: ",
                 "anthropic-ratelimit-requests-remaining: ", "anthropic-ratelimit-requests-reset: ", "anthropic-ratelimit-requests-limit: ",
                 "X-RateLimit-Remaining: ", "X-RateLimit-Reset: ", "X-RateLimit-Limit: ", "\\x0a", "\\x0d\\x0a", ":", ";", ",", "=",
                 "\\\"", "\\\\", '\\"default\\"', ";r=", ";t=", ";q=", ";w=", "?1", "ms", "us", "\\xc2\\xb5s", "ns", "h", "m", "s", ".",
                 "T", "Z", "+09:00", "-00:00", "2026-11-29T06:00:00Z", ".250", "1795932000", "86400", "86401", "1000000000",
                 "1000000001", "2147483648", "9223372036854775807", "99999999999999999999", "1099511627776"]:
        f.write('"%s"\n' % word)

# --- SSE: byte 0 picks the limit (index into 1, 4, 16, 64, 1024, 16 MiB), byte 1 the chunking
def sse(limit, chunking, stream):
    return bytes([limit, chunking]) + (stream.encode("utf-8") if isinstance(stream, str) else stream)


write("SSEFuzz", [
    sse(5, 3, "data: hello\n\n"),
    sse(5, 0, b"\xef\xbb\xbfdata: a\r\ndata: b\r\n\r\n"),
    sse(4, 7, "id: 1700000000001\nevent: response\ndata: {'type': 'continue', 'data': {'content': '\uc548'}}\n\n"
              "id: 1700000000002\nevent: response\ndata: {'type': 'complete', 'data': {'content': '\uc548\ub155'}}\n\n"),
    sse(5, 1, "retry: 99999999999999999999\ndata\n\nid\n\n:comment\n\nretry: 1e3\nretry:\nretry: 3000\ndata:x\n\n"),
    sse(5, 2, "id: a\x00b\ndata: x\r\rdata:  y\n\nevent:\ndata:\n\n"),
    sse(1, 9, "data: 0123456789abcdef\n\n"),
    sse(2, 4, "data: " + "x" * 100 + "\ndata: y\n\n"),
    sse(5, 5, "data: no end of event\ndata: still"),
    sse(5, 6, b"data: \xff\xfe\xc3\n\nevent: \xe2\x80\n\n"),
    sse(0, 8, "\r\n\r\n\n\r"),
    sse(5, 11, "data:a\rdata:b\r\n\ndata:c\n\r\n"),
    sse(3, 12, ": keep-alive\n\n" * 8),
    sse(5, 13, b"\xef\xbb"),
    sse(5, 14, b"\xef\xbb\xbf\xef\xbb\xbfdata: two BOMs\n\n"),
    sse(0, 9, "data: ab\n\n"),  # regression: a 2-byte event through a 1-byte limit (one chunk)
])
with open(os.path.join(FUZZ, "SSEFuzz", "SSEFuzz.dict"), "a", encoding="ascii") as f:
    for word in ["data:", "data: ", "event:", "event: response", "id:", "id: ", "retry:", "retry: ", ":", "\\x0d\\x0a", "\\x0d", "\\x0a\\x0a", "\\xef\\xbb\\xbf", "\\x00"]:
        f.write('"%s"\n' % word)

# --- Seoul: culturalEventInfo answers (JSON, bare RESULT, XML), broken and hostile ones
KEYS = ["CODENAME", "GUNAME", "TITLE", "DATE", "PLACE", "ORG_NAME", "USE_TRGT", "USE_FEE", "INQUIRY", "PLAYER", "PROGRAM",
        "ETC_DESC", "ORG_LINK", "MAIN_IMG", "RGSTDATE", "TICKET", "STRTDATE", "END_DATE", "THEMECODE", "LOT", "LAT", "IS_FREE",
        "HMPG_ADDR", "PRO_TIME"]
ROW = ('{"CODENAME":"\ud074\ub798\uc2dd","GUNAME":"\uc885\ub85c\uad6c","TITLE":"\uc11c\uc6b8\uc2dc\ub9bd\uad50\ud5a5\uc545\ub2e8 \uc815\uae30\uacf5\uc5f0",'
       '"DATE":"2026-03-01~2026-03-09","PLACE":"\uc138\uc885\ubb38\ud654\ud68c\uad00","ORG_NAME":"\uc11c\uc6b8\uc2dc","USE_TRGT":"\ub204\uad6c\ub098",'
       '"USE_FEE":"","INQUIRY":"02-399-1000","PLAYER":"","PROGRAM":"","ETC_DESC":"","ORG_LINK":"https://www.sejongpac.or.kr",'
       '"MAIN_IMG":"https://culture.seoul.go.kr/cmmn/file/getImage.do?atchFileId=x","RGSTDATE":"2026-01-05","TICKET":"\uae30\uad00",'
       '"STRTDATE":"2026-03-01 00:00:00.0","END_DATE":"2026-03-09 00:00:00.0","THEMECODE":"\uae30\ud0c0","LOT":"37.5726","LAT":"126.9769",'
       '"IS_FREE":"\ubb34\ub8cc","HMPG_ADDR":"https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=1","PRO_TIME":"19:30"}')
WRAP = '{"culturalEventInfo":{"list_total_count":%s,"RESULT":{"CODE":"INFO-000","MESSAGE":"\uc815\uc0c1 \ucc98\ub9ac\ub418\uc5c8\uc2b5\ub2c8\ub2e4"},"row":[%s]}}'
write("SeoulFuzz", [
    WRAP % ("3512", ROW + "," + ROW.replace("\ubb34\ub8cc", "\uc720\ub8cc")),
    WRAP % ("1", "{" + ",".join('"%s":"v%d \uac12"' % (k, i) for i, k in enumerate(KEYS)) + "}"),
    WRAP % ("2", "{" + ", ".join('"%s": "%s"' % (k, k.lower()) for k in reversed(KEYS)) + "}"),
    "\ufeff " + WRAP % ("3", '{ "TITLE" : "\uc7ac\uc988 \\"\ubc24\\"\\n2\ubd80 \\u00e9 \\ud83c\\udfb5 a\\/b \\\\ \\t", "LAT": 37.5, "LOT": 127, '
                         '"PLACE": null, "PLAYER": true, "PROGRAM": {"nested": [1, 2, {"x": null}]}, "EXTRA": [1.5e3, -0.25, "s"], "ETC_DESC": "" }'),
    '{"RESULT":{"CODE":"INFO-200","MESSAGE":"\ud574\ub2f9\ud558\ub294 \ub370\uc774\ud130\uac00 \uc5c6\uc2b5\ub2c8\ub2e4."}}',
    '{"RESULT":{"CODE":"ERROR-336","MESSAGE":"\ucd5c\ub300 1000\uac74"}}',
    '{"RESULT":{"CODE":"INFO-100","MESSAGE":"\uc778\uc99d\ud0a4"}}',
    '{"culturalEventInfo":{"list_total_count":3512.0,"RESULT":{"CODE":"INFO-000","MESSAGE":"ok"},"row":[]}}',
    '{"culturalEventInfo":{"list_total_count":"12","row":[]}}',
    '{"culturalEventInfo":{"list_total_count":1e400,"row":null}}',
    '{"culturalEventInfo":{"list_total_count":-99999999999999999999999,"row":[]}}',
    '{"culturalEventInfo":{"row":[{"TITLE":"a"},]}}',
    '{"culturalEventInfo":{"row":[{"TITLE":"a","TITLE":"b"}]}}',
    '{"culturalEventInfo":{"row":[{"TITLE":"\\ud83c"}]}}',
    b'{"culturalEventInfo":{"row":[{"TITLE":"' + b"\xff\xc3" + b'"}]}}',
    '{"culturalEventInfo":{"row":[{"STRTDATE":"\\t2026-05-05 00:00:00.0","END_DATE":"2026-02-30","DATE":"2026-06-01~2026-06-03~2026-06-09","IS_FREE":" \ubb34\ub8cc "}]}}',
    '{"culturalEventInfo":{"row":[{"TITLE":"x","X":' + "[" * 600 + "]" * 600 + '}]}}',
    '{"RESULT":{"CODE":"INFO-000","MESSAGE":"ok"}} trailing',
    '{"LAT": 01}', "{", "[]", "", "null", "{}",
    '<?xml version="1.0" encoding="UTF-8"?>\n<RESULT><CODE>INFO-100</CODE><MESSAGE>\uc778\uc99d\ud0a4\uac00 \uc720\ud6a8\ud558\uc9c0 \uc54a\uc2b5\ub2c8\ub2e4.</MESSAGE></RESULT>',
    '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><RESULT><CODE>&b;</CODE></RESULT>',
    "\ufeff<RESULT><CODE>ERROR-500</CODE><MESSAGE>\uc11c\ubc84 \uc624\ub958</MESSAGE></RESULT>",
    '{"culturalEventInfo":{"row":[' + ",".join(['{"%s":"%d"}' % (KEYS[i % 24], i) for i in range(200)]) + ']}}',
    # regressions: XMLParser crashes (NULL processing-instruction data; a non-UTF-8 attribute name),
    # and a leading zero the scanner took and JSONDecoder refused
    "<?x?>", b'<a \xf9=""/>', '{"culturalEventInfo":{"list_total_count":01}}',
], ['"%s"' % k for k in KEYS] + ['"culturalEventInfo"', '"list_total_count"', '"RESULT"', '"CODE"', '"MESSAGE"', '"row"',
    '"INFO-000"', '"INFO-200"', "null", "true", "false", "\\u", "\\ud83c\\udfb5", "\\\"", "\ubb34\ub8cc", "\uc720\ub8cc",
    "2026-03-01 00:00:00.0", "~", "1e400", "<RESULT>", "<CODE>", "</CODE>", "<MESSAGE>", "<?xml version=\"1.0\"?>", "\ufeff"])

# --- Hacker News HTML (item text, user about)
write("HTMLTextFuzz", [
    "It&#x27;s <i>here</i>.<p>See <a href=\"https:&#x2F;&#x2F;x.org\">this</a>",
    "<pre><code>  let x = 1\n    y\n</code></pre>after",
    "a&#x1b;]0;title&#7;b", "&#155;31m red", "&#x9b;2J", "&#99999999999999999999;", "&#x110000;", "&#xD800;", "&#0;",
    "<a href=\"https://example.com/a/very/long/path/that/hn/shortens/abcdefghij\" rel=\"nofollow\">https://example.com/a/very/long/path/that/hn/shortens/abcd...</a>",
    "raw \u001b[2J\u001b]52;c;aGVsbG8=\u0007 bytes", "&#x85;NEL\u0085 and \u000b\u000c\r\n\r",
    "<p><p><p>", "<a href=\"&#x1b;]8;;evil\">x</a>", "<a href='javascript:alert(1)'>j</a>", "<a href=x>y</a>",
    "&amp;&lt;&gt;&quot;&apos;&nbsp;&hellip;&mdash;&ndash;&copy;&AMP;&unknown;&;&#;&#x;",
    "<pre>\r\n\u001b</pre><br><BR/><b>bold</b><code>c</code>", "<", "&", "<a", "</", "<1>", "<a href=\"",
    "\u00e9\u0301\u200d\U0001F468\u200d\U0001F469 &#x1F600;", "<p>" * 50 + "x" + "</p>" * 50,
])
with open(os.path.join(FUZZ, "HTMLTextFuzz", "HTMLTextFuzz.dict"), "a", encoding="ascii") as f:
    for word in ["<p>", "</p>", "<a href=\\\"", "\\\">", "</a>", "<pre>", "</pre>", "<code>", "<i>", "<br>", "&#x", "&#", ";",
                 "&amp;", "&quot;", "&nbsp;", "&#x27;", "&#x2F;", "...", "\\x1b", "\\xc2\\x9b", "\\xc2\\x85", "\\x0d\\x0a"]:
        f.write('"%s"\n' % word)

# --- Alan frames: frame data, streams, and tokens (the harness also writes each input as a token)
CONT = "{'type': 'continue', 'data': {'content': %s}}"
write("AlanFrameFuzz", [
    CONT % "'\uc548'",
    "{'type': 'action', 'data': {'name': 'search_web', 'speak': '\uc9c8\ubb38\uc758 \uc758\ub3c4\ub97c \uc774\ud574\ud558\uace0 \uc788\uc5b4\uc694.'}}",
    "{'type': 'complete', 'data': {'content': '\ube44\ud2b8\ucf54\uc778\uc740 ...\\n\\n**\uc694\uc57d**'}}",
    CONT % "\"It's\"", CONT % "'\\\\'", CONT % "'\\x1b[2J'", CONT % "'\\u00e9'", CONT % "None",
    '{"type": "continue", "data": {"content": "json"}}',
    "id: 1700000000001\nevent: response\ndata: " + CONT % "'\uc548'" + "\n\nid: 1700000000002\nevent: response\ndata: "
    + "{'type': 'complete', 'data': {'content': '\uc548\ub155'}}\n\n",
    "event: response\ndata: {'type': 'continue',\ndata:  'data': {'content': 'split'}}\n\n",
    "```json\n{", "'", '"', "\\", "}", "\n", "{'type': 'x'}", "None", "True", "\u00a0", "'\"", "\\x", "{'a': 1} trailing",
    "Sure! Here is the JSON: {\"type\": \"continue\"}", "\ud55c\uad6d\uc5b4 \ud1a0\ud070 ", "",
    # regressions: a control character (written \\x00), a dict that fits the frame better
    "\x00", "{'type': 'action', 'data': {'name': 's', 'speak': 'x'}}",
])
with open(os.path.join(FUZZ, "AlanFrameFuzz", "AlanFrameFuzz.dict"), "a", encoding="ascii") as f:
    for word in ["'type'", "'data'", "'content'", "'continue'", "'complete'", "'action'", "'speak'", "'name'", "event: response",
                 "data: ", "\\\\x", "\\\\u", "\\\\n", "None", "True", "False", "```", "{'", "'}", "': '", "', '"]:
        f.write('"%s"\n' % word)

# --- multipart: "Content-Type line\nbody" for the reader; NUL-separated pieces for the round trip
BODY = ('--abc\r\nContent-Disposition: form-data; name="title"\r\n\r\n\uc11c\uc6b8 \ucd95\uc81c\r\n'
        '--abc\r\nContent-Disposition: form-data; name="photo"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n\u00ff\u00d8\r\n'
        '--abc--\r\n')
write("MultipartFuzz", [
    "multipart/form-data; boundary=abc\n" + BODY,
    'multipart/form-data; boundary="abc"\n' + BODY.replace("\r\n", "\n"),
    "multipart/form-data; boundary=\n--\r\n\r\n\r\n--",
    "multipart/form-data; boundary=abc; charset=utf-8\n--abc\r\n\r\n--abc",
    "multipart/form-data; boundary=abc\n--abc\r\nContent-Disposition: form-data; name=\"a\r\n\r\n--abc\r\n",
    "title\x00\uc11c\uc6b8 \ucd95\uc81c",
    "photo\x00\u00ff\u00d8\x00photo.jpg\x00image/jpeg\x00title\x00x",
    'na"me\x00v\x00fi\r\nle\x00text/plain',
    "\r\n\r\n\x00--\x00\x00",
    "a\x00" + "b" * 5000,
    # regressions: `"` and CR/LF joined with a combining mark are not escaped; CR LF in a type
    'x"\u0301; filename="evil.sh\x00v', "a\r\u0301\n\u0301X-Injected: 1\x00v",
    "a\x00v\x00f.txt\x00text/plain\r\nX-Injected: 1",
])
with open(os.path.join(FUZZ, "MultipartFuzz", "MultipartFuzz.dict"), "a", encoding="ascii") as f:
    for word in ["boundary=", "--", "\\x0d\\x0a", "\\x0d\\x0a\\x0d\\x0a", "Content-Disposition: form-data; name=\\\"",
                 "; filename=\\\"", "Content-Type: ", "\\\"", "\\x00", "\\xcc\\x81", "multipart/form-data; "]:
        f.write('"%s"\n' % word)

# --- disk entries: only the regression (a sealed entry whose status is 1000); see the docstring
import struct


def text(value):
    data = value.encode()
    return struct.pack("<I", len(data)) + data


folder = os.path.join(FUZZ, "DiskEntryFuzz", "seeds")
shutil.rmtree(folder, ignore_errors=True)
os.makedirs(folder)
with open(os.path.join(folder, "regression-status-1000"), "wb") as f:
    f.write(b"\x01" + text("k") + struct.pack("<I", 1) + text("u") + struct.pack("<H", 1000) + text("")
            + struct.pack("<d", 0.0) * 2 + struct.pack("<I", 0) * 2 + b"\x00" + struct.pack("<Q", 0))

# --- outbox entries: the seeds are written by the harness with the real encoder at each run
# (FUZZ_WRITE_SEEDS); here only the dictionary of the format's tokens
with open(os.path.join(FUZZ, "OutboxEntryFuzz", "OutboxEntryFuzz.dict"), "w", encoding="ascii") as f:
    f.write("# libFuzzer dictionary, written by Fuzz/make-seeds.py\n")
    for word in ["courier-outbox 1\\x0a", "\\x0a", '{\\"', '\\":', '\\":\\"', '\\",\\"', "],[", '[[\\"', '\\"]]', ":[]", ":null",
                 '\\"id\\":\\"', '\\"method\\":\\"', '\\"url\\":\\"', '\\"headers\\":', '\\"key\\":\\"', '\\"keyHeader\\":\\"',
                 '\\"createdAt\\":', '\\"attempts\\":', '\\"state\\":\\"', '\\"lastError\\":', '\\"notBefore\\":', '\\"bodyLength\\":',
                 '\\"bodySHA256\\":\\"', '\\"answer\\":{', '\\"status\\":', '\\"body\\":\\"', "queued", "failed",
                 "0000019ac8f0a000-1a2b3c4d", "http://", "https://", "HTTPS://", "POST", "PUT", "PATCH", "DELETE",
                 "Idempotency-Key", "Content-Type", "application/json", "\\\\\\\"", "\\\\u0000", "\\\\u000d\\\\u000a", "\\\\ud800",
                 "\\\\udc00", "\\\\/", "\\xc3\\xa9", "\\x7f", "2147483647", "2147483648", "-1", "0", "1e3", "1.5",
                 "253402300800000", "253402300800001", "9223372036854775807", "9223372036854775808", "65536", "99", "100", "999", "1000",
                 "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "AAAA", "==", "true"]:
        f.write('"%s"\n' % word)
