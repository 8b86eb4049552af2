/**
 * Old (旧字体) and variant (異体字) kanji folded to the forms used in everyday writing, so that a
 * name registered as 髙島屋 or 日本製鐵 is found by 高島屋 or 日本製鉄 and the other way round.
 * The old/new pairs are those bracketed in the 常用漢字表 (平成22年内閣告示第2号); the variants
 * (髙, 﨑, 邉/邊, 嶋 ...) are the ones common in company and family names. Folding applies to search
 * keys only: answers always show the name as registered.
 */
const PAIRS = [
  '亞亜 惡悪 壓圧 圍囲 爲為 醫医 壹壱 隱隠 榮栄 營営 衞衛 驛駅 圓円 鹽塩 奧奥 應応 歐欧 毆殴 穩穏 假仮 價価 畫画 會会 囘回 壞壊 懷懐 繪絵 擴拡 殼殻 覺覚 學学 嶽岳',
  '樂楽 勸勧 卷巻 歡歓 罐缶 觀観 關関 陷陥 巖巌 顏顔 歸帰 氣気 龜亀 僞偽 戲戯 犧犠 舊旧 據拠 擧挙 峽峡 挾挟 狹狭 曉暁 區区 驅駆 勳勲 徑径 惠恵 溪渓 經経 繼継 莖茎',
  '螢蛍 輕軽 鷄鶏 藝芸 缺欠 儉倹 劍剣 圈圏 檢検 權権 獻献 縣県 險険 顯顕 驗験 嚴厳 效効 廣広 恆恒 鑛鉱 號号 國国 濟済 碎砕 齋斎 劑剤 櫻桜 册冊 雜雑 參参 慘惨 棧桟',
  '蠶蚕 贊賛 殘残 絲糸 齒歯 兒児 辭辞 濕湿 實実 舍舎 寫写 釋釈 壽寿 收収 從従 澁渋 獸獣 縱縦 肅粛 處処 敍叙 奬奨 將将 燒焼 稱称 證証 乘乗 剩剰 壤壌 孃嬢 條条 淨浄',
  '疊畳 讓譲 釀醸 觸触 寢寝 愼慎 晉晋 眞真 盡尽 圖図 粹粋 醉酔 隨随 髓髄 數数 樞枢 聲声 靜静 齊斉 攝摂 竊窃 專専 戰戦 淺浅 潛潜 纖繊 踐践 錢銭 禪禅 雙双 壯壮 搜捜',
  '插挿 巢巣 爭争 總総 莊荘 裝装 騷騒 增増 藏蔵 臟臓 卽即 屬属 續続 墮堕 體体 對対 帶帯 滯滞 臺台 瀧滝 擇択 澤沢 單単 擔担 膽胆 團団 彈弾 斷断 癡痴 遲遅 晝昼 蟲虫',
  '鑄鋳 廳庁 聽聴 鎭鎮 轉転 傳伝 燈灯 當当 黨党 盜盗 稻稲 鬪闘 德徳 獨独 讀読 屆届 繩縄 貳弐 惱悩 腦脳 廢廃 拜拝 賣売 麥麦 發発 髮髪 拔抜 蠻蛮 祕秘 濱浜 拂払 佛仏',
  '竝並 變変 邊辺 邉辺 辨弁 瓣弁 辯弁 舖舗 步歩 寶宝 豐豊 沒没 萬万 滿満 默黙 譯訳 藥薬 與与 豫予 餘余 譽誉 搖揺 樣様 謠謡 來来 賴頼 亂乱 覽覧 龍竜 兩両 獵猟 綠緑',
  '壘塁 淚涙 勵励 禮礼 隸隷 靈霊 齡齢 戀恋 爐炉 勞労 樓楼 祿禄 錄録 灣湾 鐵鉄 鐡鉄 髙高 﨑崎 嵜崎 嶋島 嶌島 冨富 桒桑 槗橋 黑黒',
].join(' ');

const FOLD = new Map<string, string>();
for (const pair of PAIRS.split(' ')) {
  const [from, to] = Array.from(pair);
  if (from !== to) FOLD.set(from, to);
}

const VARIANT = new RegExp(`[${[...FOLD.keys()].join('')}]`, 'gu');

/** Replaces old and variant kanji by their everyday forms (search keys only). */
export function foldKanjiVariants(text: string): string {
  return text.replace(VARIANT, (ch) => FOLD.get(ch)!);
}
