/// Words the stand-in's data is made of: the real category names and districts (with their
/// approximate centres), venues, and title parts.
enum SeoulNames {
    static let categories = [
        "교육/체험", "국악", "기타", "독주/독창회", "무용", "뮤지컬/오페라", "연극", "영화", "전시/미술",
        "축제-기타", "축제-문화/예술", "축제-시민화합", "축제-자연/경관", "축제-전통/역사", "콘서트", "클래식",
    ]

    struct District: Sendable {
        let name: String
        let romanized: String
        let latitude: Double
        let longitude: Double
    }

    static let districts: [District] = [
        .init(name: "종로구", romanized: "jongno", latitude: 37.5730, longitude: 126.9794),
        .init(name: "중구", romanized: "junggu", latitude: 37.5641, longitude: 126.9979),
        .init(name: "용산구", romanized: "yongsan", latitude: 37.5326, longitude: 126.9905),
        .init(name: "성동구", romanized: "sd", latitude: 37.5634, longitude: 127.0369),
        .init(name: "광진구", romanized: "gwangjin", latitude: 37.5385, longitude: 127.0823),
        .init(name: "동대문구", romanized: "ddm", latitude: 37.5744, longitude: 127.0396),
        .init(name: "중랑구", romanized: "jungnang", latitude: 37.6063, longitude: 127.0925),
        .init(name: "성북구", romanized: "sb", latitude: 37.5894, longitude: 127.0167),
        .init(name: "강북구", romanized: "gangbuk", latitude: 37.6396, longitude: 127.0257),
        .init(name: "도봉구", romanized: "dobong", latitude: 37.6688, longitude: 127.0471),
        .init(name: "노원구", romanized: "nowon", latitude: 37.6542, longitude: 127.0568),
        .init(name: "은평구", romanized: "ep", latitude: 37.6027, longitude: 126.9291),
        .init(name: "서대문구", romanized: "sdm", latitude: 37.5791, longitude: 126.9368),
        .init(name: "마포구", romanized: "mapo", latitude: 37.5663, longitude: 126.9019),
        .init(name: "양천구", romanized: "yangcheon", latitude: 37.5170, longitude: 126.8665),
        .init(name: "강서구", romanized: "gangseo", latitude: 37.5509, longitude: 126.8495),
        .init(name: "구로구", romanized: "guro", latitude: 37.4954, longitude: 126.8874),
        .init(name: "금천구", romanized: "geumcheon", latitude: 37.4569, longitude: 126.8955),
        .init(name: "영등포구", romanized: "ydp", latitude: 37.5264, longitude: 126.8962),
        .init(name: "동작구", romanized: "dongjak", latitude: 37.5124, longitude: 126.9393),
        .init(name: "관악구", romanized: "gwanak", latitude: 37.4784, longitude: 126.9516),
        .init(name: "서초구", romanized: "seocho", latitude: 37.4837, longitude: 127.0324),
        .init(name: "강남구", romanized: "gangnam", latitude: 37.5172, longitude: 127.0473),
        .init(name: "송파구", romanized: "songpa", latitude: 37.5145, longitude: 127.1059),
        .init(name: "강동구", romanized: "gangdong", latitude: 37.5301, longitude: 127.1238),
    ]

    static let famousVenues: [String: [String]] = [
        "종로구": ["세종문화회관 대극장", "세종문화회관 M씨어터", "대학로 예술극장", "서울공예박물관"],
        "중구": ["명동예술극장", "국립극장 해오름극장", "서울광장", "덕수궁 돌담길"],
        "서초구": ["예술의전당 콘서트홀", "예술의전당 한가람미술관", "국립국악원 예악당"],
        "송파구": ["롯데콘서트홀", "올림픽공원 KSPO DOME", "석촌호수 일대"],
        "마포구": ["홍대 앞 걷고싶은거리", "문화비축기지", "월드컵공원 평화의공원"],
        "영등포구": ["여의도한강공원 물빛무대", "영등포아트홀"],
        "용산구": ["국립중앙박물관 극장 용", "블루스퀘어"],
        "성동구": ["서울숲 야외무대", "성수아트홀"],
    ]

    static let themes = [
        "봄날의 왈츠", "한강의 밤", "달빛 정원", "서울, 그리고 우리", "바람의 노래", "푸른 시간", "별 헤는 밤",
        "시간의 강", "잊혀진 계절", "꽃과 나비", "도시의 숲", "겨울 나그네", "청춘 예찬", "첫눈 오는 날",
        "골목길 이야기", "빛의 정원", "사계(四季)", "아리랑 환상곡", "Jazz & Seoul", "Hello, Seoul!",
    ]

    static let fees = ["전석 30,000원", "R석 70,000원, S석 50,000원, A석 30,000원", "성인 10,000원 / 청소년 5,000원", "1인 5,000원 (재료비 포함)", "20,000원"]
    static let targets = ["누구나", "8세 이상", "초등학생 이상", "성인", "가족 단위", "65세 이상 어르신"]
    static let players = ["서울시립교향악단", "서울시국악관현악단", "서울시합창단", "서울시뮤지컬단", "서울시무용단", "지역 예술인", "구립 청소년 오케스트라"]

    static func title(category: String, district: String, random: inout SplitMix) -> String {
        let theme = themes[random.below(themes.count)]
        let number = 2 + random.below(60)
        return switch category {
        case "교육/체험": ["\(theme) 원데이 클래스", "어린이 \(theme) 체험교실", "\(district) 생활문화 강좌: \(theme)"][random.below(3)]
        case "국악": ["국악 한마당 〈\(theme)〉", "판소리 다섯 바탕 – \(theme)", "\(district) 국악 공연 \(number)회"][random.below(3)]
        case "기타": ["\(district) 문화가 있는 날: \(theme)", "북토크 〈\(theme)〉"][random.below(2)]
        case "독주/독창회": ["피아노 독주회 〈\(theme)〉", "바이올린 리사이틀: \(theme)", "소프라노 독창회 \(theme)"][random.below(3)]
        case "무용": ["현대무용 〈\(theme)〉", "발레 갈라 \(theme)", "한국무용 정기공연 \(number)회"][random.below(3)]
        case "뮤지컬/오페라": ["뮤지컬 〈\(theme)〉", "오페라 〈\(theme)〉", "가족 뮤지컬 〈\(theme)〉"][random.below(3)]
        case "연극": ["연극 〈\(theme)〉", "낭독극 \(theme)", "\(district) 소극장 연극제: \(theme)"][random.below(3)]
        case "영화": ["\(district) 시네마 특별상영: \(theme)", "한강 야외영화제 〈\(theme)〉"][random.below(2)]
        case "전시/미술": ["기획전 〈\(theme)〉", "\(theme): 사진전", "서울 작가 \(number)인전 – \(theme)"][random.below(3)]
        case "콘서트": ["\(district) 힐링 콘서트 \(theme)", "재즈 콘서트 〈\(theme)〉", "인디 밴드 공연: \(theme)"][random.below(3)]
        case "클래식": ["서울시향 정기연주회 \(number)회", "실내악 시리즈 〈\(theme)〉", "브런치 콘서트: \(theme)"][random.below(3)]
        default: "\(district) \(theme) 축제"
        }
    }

    static func place(district: String, random: inout SplitMix) -> String {
        let generic = ["\(district)민회관", "\(district)청 대강당", "\(district) 문화재단 아트홀", "\(district) 구립도서관", "\(district) 근린공원"]
        let options = (famousVenues[district] ?? []) + generic
        return options[random.below(options.count)]
    }
}
