/// The real examples from the Hacker News API's own documentation, by hand (their replies are
/// generated). `score`, `kids` and `descendants` change over time on the real site.
enum HackerNewsFixtures {
    static let dropboxStory = HackerNewsRecord(
        id: 8863, type: "story", by: "dhouston", time: 1_175_714_200,
        url: "http://www.getdropbox.com/u/2/screencast.html", score: 111,
        title: "My YC app: Dropbox - Throw away your USB drive"
    )
    static let dropboxKids = [8952, 9224, 8917, 8884, 8887, 8943, 8869, 8958, 9005, 9671]

    static let norvigComment = HackerNewsRecord(
        id: 2_921_983, type: "comment", by: "norvig", time: 1_314_211_127,
        text:
            "Aw shucks, guys ... you make me blush with your compliments.<p>Tell you what, Ill make a deal: I&#x27;ll keep writing if you keep reading. K?",
        parent: 2_921_506
    )
    static let norvigKids = [2_922_097, 2_922_429, 2_924_562, 2_922_709, 2_922_573, 2_922_140, 2_922_141]

    static let askStory = HackerNewsRecord(
        id: 121_003, type: "story", by: "tel", time: 1_203_647_620,
        text:
            "<i>or</i> HN: the Next Iteration<p>I get the impression that with Arc being released a lot of people who never had time for HN before are suddenly dropping in more often. (PG: what are the numbers on this? I&#x27;m envisioning a spike.)<p>Not to say that isn&#x27;t great, it is. I&#x27;m just wondering what the effect will be in the scope of the community...",
        score: 25, title: "Ask HN: The Arc Effect"
    )
    static let askKids = [121_016, 121_109, 121_168]

    static let job = HackerNewsRecord(
        id: 192_327, type: "job", by: "justin", time: 1_210_981_217,
        text:
            "Justin.tv is the biggest live video site online. We serve hundreds of thousands of video streams a day, and have supported up to 50k live concurrent viewers. Our site is growing every week, and we just added a 10 gbps line to our colo. Our unique visitors are up 900% since January.<p>There are a lot of pieces that fit together to make Justin.tv work: our video cluster, IRC server, our web app, and our monitoring and search services, to name a few. A lot of our website is dependent on Flash, and we&#x27;re looking for talented Flash Engineers who know AS2 and AS3 very well who want to be leaders in the development of our Flash.<p>Responsibilities<p><pre><code>    * Contribute to product design and implementation discussions\n    * Implement projects from the idea phase to production\n    * Test and iterate code before and after production release \n</code></pre>\nQualifications<p><pre><code>    * You should know AS2, AS3, and maybe a little be of Flex.\n    * Experience building web applications.\n    * A strong desire to work on website with passionate users and ideas for how to improve it.\n    * Experience hacking video streams, python, Twisted or rails all a plus.\n</code></pre>\nWhile we&#x27;re growing rapidly, Justin.tv is still a small, technology focused company, built by hackers for hackers. Seven of our ten person team are engineers or designers. We believe in rapid development, and push out new code as often as we can.<p>If you&#x27;re a passionate Flash Engineer and would like to be a part of our team, please email us at jobs@justin.tv",
        url: "", score: 6, title: "Justin.tv is looking for a Lead Flash Engineer!"
    )

    static let poll = HackerNewsRecord(
        id: 126_809, type: "poll", by: "pg", time: 1_204_403_652, text: "",
        score: 46, title: "Poll: What would happen if News.YC had explicit support for polls?", parts: [126_810, 126_811, 126_812]
    )
    static let pollKids = [126_822, 126_823, 126_993, 126_824, 126_934]
    /// The options' texts are the stand-in's own (the documentation shows only their ids).
    static let pollOptions = [
        HackerNewsRecord(id: 126_810, type: "pollopt", by: "pg", time: 1_204_403_652, text: "It would be used a lot.", poll: 126_809, score: 335),
        HackerNewsRecord(id: 126_811, type: "pollopt", by: "pg", time: 1_204_403_652, text: "It would be used a bit.", poll: 126_809, score: 140),
        HackerNewsRecord(id: 126_812, type: "pollopt", by: "pg", time: 1_204_403_652, text: "It would hardly be used.", poll: 126_809, score: 29),
    ]
    static let valleywagOption = HackerNewsRecord(
        id: 160_705, type: "pollopt", by: "pg", time: 1_207_886_576,
        text: "Yes, ban them; I&#x27;m tired of seeing Valleywag stories on News.YC.", poll: 160_704, score: 335
    )

    /// Stories whose `url` no browser should be handed (the API's `url` is any text a user
    /// submitted): a `javascript:` link, a `file:` link, and a title carrying a terminal escape
    /// (OSC 0, set the window title) and a line break. In no list; fetched by id.
    static let javascriptLinkID = 40_000_001
    static let fileLinkID = 40_000_002
    static let hostileLinks = [
        HackerNewsRecord(
            id: javascriptLinkID, type: "story", by: "mallory", time: 1_700_000_000, url: "javascript:alert(document.cookie)", score: 1,
            title: "Free \u{1B}]0;pwned\u{07}karma\n-----\nby pg"),
        HackerNewsRecord(
            id: fileLinkID, type: "story", by: "mallory", time: 1_700_000_100, url: "file:///etc/passwd", score: 1,
            title: "Read your own passwords"),
    ]

    static let users = [
        HackerNewsUserRecord(id: "jl", created: 1_173_923_446, karma: 2937, about: "This is a test", submitted: [8265435, 8168423, 8090946]),
        HackerNewsUserRecord(
            id: "pg", created: 1_160_418_092, karma: 157_316, about: "Bug fixer.", submitted: [126_809, 126_810, 126_811, 126_812, 160_705]),
        HackerNewsUserRecord(id: "dhouston", created: 1_175_645_457, karma: 2_432, submitted: [8863]),
        HackerNewsUserRecord(
            id: "norvig", created: 1_228_408_916, karma: 8_764, about: "Peter Norvig, <a href=\"https:&#x2F;&#x2F;norvig.com\">norvig.com</a>",
            submitted: [2_921_983]),
        HackerNewsUserRecord(id: "tel", created: 1_182_283_932, karma: 19_302, submitted: [121_003]),
        HackerNewsUserRecord(id: "justin", created: 1_167_168_658, karma: 1_624, submitted: [192_327]),
    ]
}
