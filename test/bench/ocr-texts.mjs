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
  jpn: ["吾輩は猫である。名前はまだ無い。", "どこで生れたかとんと見当がつかぬ。", "何でも薄暗いじめじめした所で", "ニャーニャー泣いていた事だけは記憶している。"],
  chi_sim: ["学而时习之，不亦说乎？", "有朋自远方来，不亦乐乎？", "人不知而不愠，不亦君子乎？", "温故而知新，可以为师矣。"],
};
