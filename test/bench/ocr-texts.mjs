// Ground-truth text for the engine's tests and the OCR benchmark (no dependencies: loads anywhere).

/**
 * Public-domain text (classic openings), a few lines each, by tesseract language.
 * Lines are kept short enough to fit an A4 width at 10–12 pt.
 */
export const TEXTS = {
  eng: [
    "It is a truth universally acknowledged, that a single man",
    "in possession of a good fortune, must be in want of a wife.",
    "However little known the feelings or views of such a man may be",
    "on his first entering a neighbourhood, this truth is so well fixed",
  ],
  fra: [
    "En 1815, M. Charles-François-Bienvenu Myriel était évêque",
    "de Digne. C'était un vieillard d'environ soixante-quinze ans;",
    "il occupait le siège de Digne depuis 1806. Quoique ce détail",
    "ne touche en aucune manière au fond même de ce que nous avons à raconter,",
  ],
  deu: [
    "Als Gregor Samsa eines Morgens aus unruhigen Träumen erwachte,",
    "fand er sich in seinem Bett zu einem ungeheueren Ungeziefer",
    "verwandelt. Er lag auf seinem panzerartig harten Rücken und sah,",
    "wenn er den Kopf ein wenig hob, seinen gewölbten, braunen Bauch.",
  ],
  spa: [
    "En un lugar de la Mancha, de cuyo nombre no quiero acordarme,",
    "no ha mucho tiempo que vivía un hidalgo de los de lanza en astillero,",
    "adarga antigua, rocín flaco y galgo corredor. Una olla de algo más",
    "vaca que carnero, salpicón las más noches, duelos y quebrantos los sábados,",
  ],
  ita: [
    "Quel ramo del lago di Como, che volge a mezzogiorno,",
    "tra due catene non interrotte di monti, tutto a seni e a golfi,",
    "a seconda dello sporgere e del rientrare di quelli, vien, quasi",
    "a un tratto, a ristringersi, e a prender corso e figura di fiume.",
  ],
  por: [
    "Uma noite destas, vindo da cidade para o Engenho Novo,",
    "encontrei no trem da Central um rapaz aqui do bairro,",
    "que eu conheço de vista e de chapéu. Cumprimentou-me,",
    "sentou-se ao pé de mim, falou da lua e dos ministros.",
  ],
  jpn: [
    "吾輩は猫である。名前はまだ無い。",
    "どこで生れたかとんと見当がつかぬ。",
    "何でも薄暗いじめじめした所で",
    "ニャーニャー泣いていた事だけは記憶している。",
  ],
  chi_sim: ["学而时习之，不亦说乎？", "有朋自远方来，不亦乐乎？", "人不知而不愠，不亦君子乎？", "温故而知新，可以为师矣。"],
  // Natsume's opening again, set in columns (top to bottom, right to left).
  jpn_vert: [
    "吾輩は猫である。名前はまだ無い。",
    "どこで生れたかとんと見当がつかぬ。",
    "何でも薄暗いじめじめした所で",
    "ニャーニャー泣いていた事だけは記憶している。",
  ],
  // Lu Xun, 狂人日记 (A Madman's Diary, 1918; public domain), its opening, set in columns.
  chi_sim_vert: ["今天晚上，很好的月光。", "我不见他，已是三十多年；", "今天见了，精神分外爽快。", "才知道以前的三十多年，全是发昏；"],
  // Yun Dong-ju, 서시 (Prologue, 1941; public domain), set in columns.
  kor_vert: ["죽는 날까지 하늘을 우러러", "한 점 부끄럼이 없기를,", "잎새에 이는 바람에도", "나는 괴로워했다."],
  rus: [
    "Все счастливые семьи похожи друг на друга,",
    "каждая несчастливая семья несчастлива по-своему.",
    "Все смешалось в доме Облонских. Жена узнала,",
    "что муж был в связи с бывшею в их доме гувернанткой.",
  ],
  // Article 1 of the Universal Declaration of Human Rights in its official translations.
  ara: ["يولد جميع الناس أحرارا متساوين في الكرامة والحقوق.", "وقد وهبوا عقلا وضميرا وعليهم أن يعامل", "بعضهم بعضا بروح الإخاء."],
  heb: [
    "כל בני האדם נולדו בני חורין ושווים בערכם ובזכויותיהם.",
    "כולם חוננו בתבונה ובמצפון, לפיכך חובה עליהם",
    "לנהוג איש ברעהו ברוח של אחוה.",
  ],
  hin: [
    "सभी मनुष्यों को गौरव और अधिकारों के मामले में",
    "जन्मजात स्वतन्त्रता और समानता प्राप्त है।",
    "उन्हें बुद्धि और अन्तरात्मा की देन प्राप्त है",
    "और परस्पर उन्हें भाईचारे के भाव से बर्ताव करना चाहिए।",
  ],
  kor: [
    "모든 인간은 태어날 때부터 자유로우며",
    "그 존엄과 권리에 있어 동등하다.",
    "인간은 천부적으로 이성과 양심을 부여받았으며",
    "서로 형제애의 정신으로 행동하여야 한다.",
  ],
};
