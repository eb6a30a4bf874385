extension CulturalEventAPI {
    /// Where the programs come from, to name wherever they are shown (the app credited it in its
    /// settings screen): Seoul Open Data (서울 열린데이터광장), the dataset 서울시 문화행사 정보.
    public enum Source {
        /// The publisher: `Seoul Open Data (서울 열린데이터광장)`.
        public static let publisher = "Seoul Open Data (서울 열린데이터광장)"
        /// The dataset, with the service's name: `서울시 문화행사 정보 (culturalEventInfo)`.
        public static let dataset = "서울시 문화행사 정보 (\(CulturalEventAPI.service))"
        /// The dataset's page on data.seoul.go.kr (OA-15486).
        public static let link = "https://data.seoul.go.kr/dataList/OA-15486/S/1/datasetView.do"
        /// One line naming all three: `Source: Seoul Open Data (서울 열린데이터광장), 서울시 문화행사 정보 (culturalEventInfo): https://…`.
        public static var credit: String { "Source: \(publisher), \(dataset): \(link)" }
    }
}
