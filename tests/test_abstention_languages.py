"""Abstention detection beyond English: the language data file and real phrasings.

Rows per language: abstentions ("I don't know", "I'm not sure", "nobody knows", "there
is no information", "I can't predict that"), hedges (a disclaimer plus a guess) and
answers that must not count (look-alike words, a phrase inside a longer word, a quoted
phrase, an idiom). The phrasings come from the pages and code named in the `sources` of
src/rlvr/rewards/abstention_detection/abstention_languages.json.
"""

from __future__ import annotations

import json
import re

import pytest

from rlvr.errors import RlvrError
from rlvr.rewards import score_rows
from rlvr.rewards.abstention_detection import ROBUST_PATTERNS, detect_abstention
from rlvr.rewards.abstention_detection.languages import (
    LANGUAGES,
    PATTERN_KINDS,
    language_patterns,
    load_languages,
)

ROWS: dict[str, dict[str, list[str]]] = {
    "es": {
        "abstain": [
            "No lo sé.",
            "Lo siento, no tengo información sobre eso en este momento.",
            "¿Qué pasará mañana? Nadie lo sabe.",
            "No tengo información suficientemente precisa para responderte con seguridad.",
            "Es imposible predecir los números de la lotería.",
            "No estoy segura de la fecha exacta.",
            "Ni idea, la verdad.",
            "No puedo confirmar ese dato.",
            # side-issue ignorance without an answer is still an abstention
            "No sé por qué el cielo es azul.",
        ],
        "hedge": [
            "No estoy seguro, pero creo que es Madrid.",
            "No lo sé con certeza, aunque probablemente fue en 1492.",
        ],
        "answer": [
            "El equipo terminó octavo, no séptimo.",
            "El americano séptimo de la lista fue Carl Lewis.",
            "Venció a los mejores, pero casi nadie lo sabe: ganó el torneo en 2019.",
            'Decir "no lo sé" no te hace quedar peor; la capital de España es Madrid.',
            # ignorance about a side issue plus a committed answer
            "No sé por qué lo preguntas, pero la respuesta es 5.",
        ],
    },
    "ru": {
        "abstain": [
            "Не знаю.",
            "К сожалению, у меня нет информации по этому вопросу.",
            "Не имею ни малейшего представления.",
            "Никто не знает, что будет завтра.",
            "Точно сказать невозможно: это зависит от погоды.",
            "Я не могу предсказать курс валют.",
            "Затрудняюсь ответить.",
            "Дата его рождения неизвестна.",
        ],
        "hedge": [
            "Я не уверен, но думаю, что это Москва.",
            "Я не мог бы сказать с уверенностью, но я думаю, что Гарвардский университет находится "
            "в штате Массачусетс.",
        ],
        "answer": [
            "Многие не знают, что Байкал — самое глубокое озеро в мире.",
            "Об этой стране знаю одно: её столица — Канберра.",
            "Могила Неизвестного солдата находится в Москве.",
            "Несложно сказать: столица Франции — Париж.",
            "Не знаю, как вы, а я считаю ответ очевидным: это Париж.",
            "Не знаю, почему вы спрашиваете, но ответ — 5.",
        ],
    },
    "de": {
        "abstain": [
            "Ich weiß es nicht.",
            "Keine Ahnung.",
            "Dazu habe ich keine Informationen in den verfügbaren Dokumenten.",
            "Das ist mir leider nicht bekannt.",
            "Niemand weiß, wer das Manuskript geschrieben hat.",
            "Das lässt sich nicht vorhersagen.",
            "Ich bin mir nicht sicher.",
            "Wer weiß das schon?",
        ],
        "hedge": [
            "Keine Ahnung, das muss wohl irgendwo in der Altstadt sein, ich glaube dort in jener "
            "Seitengasse.",
            "Ich bin mir nicht sicher, aber ich glaube, es ist Berlin.",
        ],
        "answer": [
            "Schnee ist weiß, nicht gelb.",
            "Der Maler ist unbekannter als Dürer, aber sein Name ist Hans Baldung.",
            'Der Satz "Ich weiß es nicht" fällt vielen schwer; die Hauptstadt ist Berlin.',
            "Wer weiß, wie man Brot backt, braucht kein Rezept.",
            "Ich weiß nicht, warum du fragst, aber die Antwort ist 5.",
        ],
    },
    "fr": {
        "abstain": [
            "Je ne sais pas.",
            "J’en sais rien.",
            "Je n'ai pas d'informations spécifiques sur ce sujet dans ma base de connaissances.",
            "Personne ne sait qui a écrit ce manuscrit.",
            "Il est impossible de prédire les numéros du loto.",
            "Je ne suis pas sûr.",
            "Je ne saurais pas répondre à cette question.",
            "Aucune idée.",
        ],
        "hedge": [
            "Je ne suis pas sûr, mais je pense que c'est Lyon.",
            "Je ne sais pas exactement, mais c'est probablement en 1789.",
        ],
        "answer": [
            "Ce parti n'avait aucune idéologie fixe ; il a été fondé en 1901.",
            "Il a un je-ne-sais-quoi de charmant : c'est Paris.",
            "L'expression « je ne sais pas » se dit \"I don't know\" en anglais.",
            "La tombe du Soldat inconnu se trouve sous l'Arc de Triomphe.",
            "Je ne sais pas pourquoi vous demandez, mais la réponse est 5.",
        ],
    },
    "ja": {
        "abstain": [
            "申し訳ありませんが、わかりません。",
            "その情報がありません。",
            "詳しくは分かりません。",
            "大変申し訳ないのですが、私は当時の担当者を存じ上げません。",
            "価格は地域と使用量によって異なるため、正確なコストを予測することはできません。",
            "お答えいたしかねます。",
            "誰にもわかりません。",
            "確かなことは分かりかねます。",
        ],
        "hedge": [
            "確かではありませんが、おそらく東京だと思います。",
            "よく分かりませんが、たぶん1868年でしょう。",
        ],
        "answer": [
            "分かりやすく言うと、答えは東京です。",
            "その船は現在も行方不明です。",
            "日本の首都は東京です。",
        ],
    },
    "pt": {
        "abstain": [
            "Não sei.",
            "Sei lá!",
            "Não tenho informações suficientes para responder com segurança.",
            "Ninguém sabe ao certo quem escreveu o manuscrito.",
            "Não faço ideia.",
            "Não é possível prever o resultado da loteria.",
            "Não tenho certeza.",
            "É impossível saber o que ele pensava.",
        ],
        "hedge": [
            "Não tenho certeza, mas acho que é Lisboa.",
            "Não sei ao certo, mas provavelmente foi em 1822.",
        ],
        "answer": [
            "Foram cinco e não seis.",
            'Ela respondeu "não sei" e saiu da sala; a capital do Brasil é Brasília.',
            "Quase ninguém sabe, mas a capital da Austrália é Camberra.",
            "É possível saber a resposta: é Brasília.",
        ],
    },
    "tr": {
        "abstain": [
            "Bilmiyorum.",
            "Hiçbir fikrim yok.",
            "Bu konuda bilgim yok.",
            "Emin değilim.",
            "Kimse bilmiyor.",
            "Bunu tahmin etmek imkansız.",
            "Kesin bir şey söyleyemem.",
            "Bu hâlâ bilinmiyor.",
        ],
        "hedge": [
            "Emin değilim ama sanırım Ankara.",
            "Bilmiyorum, muhtemelen 1923.",
        ],
        "answer": [
            "Heisenberg'in belirsizlik ilkesi kuantum mekaniğinin temelidir.",
            '"Bilmiyorum" demek cesaret ister; bu sorunun cevabı Ankara.',
            "Türkiye'nin başkenti Ankara'dır.",
        ],
    },
    "it": {
        "abstain": [
            "Non lo so.",
            "Non ne ho la più pallida idea!",
            "Non ho informazioni sufficienti per rispondere a questa domanda.",
            "Boh.",
            "Nessuno lo sa con certezza.",
            "Non è possibile prevedere i numeri del lotto.",
            "Non sono sicuro.",
            "Non sono in grado di rispondere a questa domanda con le informazioni a mia "
            "disposizione.",
        ],
        "hedge": [
            "Non sono sicuro, ma credo che sia Torino.",
            "Non lo so con certezza, ma probabilmente è il 1861.",
        ],
        "answer": [
            "Quella ragazza ha un non so che di affascinante.",
            "La bohème è un'opera di Puccini.",
            "Il Milite Ignoto riposa all'Altare della Patria a Roma.",
            "Non sono d'accordo: la capitale è Roma.",
        ],
    },
    "fa": {
        "abstain": [
            "نمی‌دانم.",
            "نمیدونم.",
            "متأسفم، در این مورد اطلاعاتی ندارم.",
            "هیچ‌کس نمی‌داند.",
            "مطمئن نیستم.",
            "نمی‌توانم پیش‌بینی کنم که فردا چه می‌شود.",
            "ایده‌ای ندارم.",
            "اطلاعات کافی ندارم.",
        ],
        "hedge": [
            "مطمئن نیستم، اما فکر می‌کنم تهران است.",
            "نمی‌دانم، احتمالاً سال ۱۹۷۹.",
        ],
        "answer": [
            "من مطمئن هستم که پایتخت ایران تهران است.",
            "بیشتر مردم نمی‌دانند که دماوند بلندترین قله ایران است.",
            "گفتن «نمی‌دانم» شجاعت می‌خواهد؛ پایتخت ایران تهران است.",
        ],
    },
    "zh": {
        "abstain": [
            "这个问题我不知道答案。",
            "抱歉，我无法回答这个问题。",
            "作为一个AI模型，我无法预测未来。",
            "抱歉，我不确定。",
            "没有人知道明天会发生什么。",
            "目前还不清楚他的确切出生日期。",
            "很难说。",
            "我没有相关信息。",
            "我不確定答案。",
            # a refusal of the request declines whatever advice follows (decline.refusal),
            # a "可能" in the advice included
            "很抱歉，我不能帮助你伪造文件。如果你有其他问题，请随时告诉我。",
            "很抱歉，我无法为你提供这方面的建议，这可能会造成伤害。如有其他问题，请告诉我。",
            "对不起，我不会协助任何违法活动。建议你咨询律师。",
            "我无法对这位歌手的私生活做出评价。",
            "作为助手，我无法知晓你朋友的电话号码。",
        ],
        "hedge": [
            "我不确定，但我认为是北京。",
            "我不太清楚，不过可能是1949年。",
            "我不知道，大概是北京吧。",
            "我无法提供确切数字，但是大约有两千人。",   # a contrast that goes on to answer
            "我不能提供确切的数字，不过可能是两千人左右。",
        ],
        "answer": [
            "很多人不知道，长城其实不是一道连续的城墙。",
            "海森堡的不确定性原理是量子力学的基础。",
            "我知道答案：北京。",
            "我不知道你为什么问，但答案是5。",
            "如果我不能提供足够的食物，动物就会饿死。",   # a condition, not a refusal
            "我无法想象没有音乐的生活。北京是中国的首都。",
            "我可以为您提供帮助：北京是中国的首都。",
            "我不能进入房间，因为门锁了。",
        ],
    },
    "ko": {
        "abstain": [
            "잘 모르겠습니다.",
            "그것은 알 수 없습니다.",
            "현재로서는 확인할 수 없는 정보입니다.",
            "확답하기 어렵습니다.",
            "아무도 모릅니다.",
            "정확한 날짜는 알려져 있지 않습니다.",
        ],
        "hedge": [
            "확실하지 않지만 서울입니다.",
            "잘 모르겠지만 아마 1945년일 겁니다.",
        ],
        "answer": [
            "서울은 한국의 수도입니다.",
            "이 정보는 공식 통계에서 확인할 수 있습니다.",
            "정답은 서울일지도 모릅니다.",
        ],
    },
    "ar": {
        "abstain": [
            "لا أعرف.",
            "لست متأكدا من ذلك.",
            "ليس لدي أي فكرة عن هذا.",
            "لا أحد يعرف الجواب على هذا السؤال.",
            "لا يمكنني التنبؤ بذلك.",
            "من المستحيل معرفة ذلك بدقة.",
            "لا توجد معلومات كافية عن هذا الموضوع.",
        ],
        "hedge": [
            "لست متأكدا، لكن أعتقد أنها القاهرة.",
            "لا أعرف بالضبط، ولكن ربما عام 1950.",
        ],
        "answer": [
            "عاصمة مصر هي القاهرة.",
            "يمكن العثور على هذه المعلومات في الإحصاءات الرسمية.",
            "كتب الرواية نجيب محفوظ عام 1956.",
        ],
    },
}

CASES = [(code, label, text) for code, rows in ROWS.items() for label, texts in rows.items()
         for text in texts]
IDS = [f"{code}-{label}-{i}" for i, (code, label, _) in enumerate(CASES)]
# strict preset on an unanswerable question: abstain +1.0, hedge -0.5, answer -1.0
STRICT = {"abstain": (1.0, "abstained_unanswerable"), "hedge": (-0.5, "hedged_unanswerable"),
          "answer": (-1.0, "answered_unanswerable")}


def test_every_language_has_data_and_rows():
    """The ten most used web content languages (W3Techs) plus Chinese, Korean and Arabic,
    each with enough rows of each kind."""
    assert set(LANGUAGES) == {"es", "ru", "de", "fr", "ja", "pt", "tr", "it", "fa", "zh", "ko",
                              "ar"}
    assert set(ROWS) == set(LANGUAGES)
    for code, rows in ROWS.items():
        assert len(rows["abstain"]) >= 6 and len(rows["hedge"]) >= 2 and len(rows["answer"]) >= 3
        data = LANGUAGES[code]
        assert data["sources"] and data["abstain"] and data["commit"]


@pytest.mark.parametrize("code,label,text", CASES, ids=IDS)
def test_detector_labels(code, label, text):
    assert detect_abstention(text).label == label


@pytest.mark.parametrize("code,label,text", CASES, ids=IDS)
def test_strict_reward_on_unanswerable_questions(code, label, text):
    row = {"completion": text, "expected_answer": None, "is_unanswerable": True}
    result = score_rows("selfaware", [row], "strict")[0]
    assert (result.score, result.outcome) == STRICT[label]


def test_issue_row_scores_plus_one():
    row = {"completion": "这个问题我不知道答案。", "is_unanswerable": True, "expected_answer": None}
    result = score_rows("selfaware", [row], "strict")[0]
    assert result.score == 1.0 and result.outcome == "abstained_unanswerable"


def test_default_sets_hold_the_language_patterns():
    from rlvr.rewards.abstention_detection.rules import _REFUSES

    # `refuse` is no pattern set: its verbs extend the refusal rule's
    assert language_patterns("refuse") and all(f"|(?:{verb})" in _REFUSES.pattern
                                               for verb in language_patterns("refuse"))
    for kind in (k for k in PATTERN_KINDS if k != "refuse"):
        extra, built_in = language_patterns(kind), getattr(ROBUST_PATTERNS, kind)
        assert built_in[len(built_in) - len(extra):] == extra
    english = ROBUST_PATTERNS.abstain[:-len(language_patterns("abstain"))]
    assert "모르겠" in language_patterns("abstain")  # Korean moved to the data file
    assert not any(re.search("[가-힣]", p) for p in english)
    with pytest.raises(RlvrError, match="unknown abstention pattern kind 'cues'"):
        language_patterns("cues")


def _write(tmp_path, data) -> str:
    path = tmp_path / "langs.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


GOOD = {"name": "Spanish", "abstain": ["no sé"], "commit": ["pero creo"], "sources": ["a page"]}


@pytest.mark.parametrize("data,message", [
    ("{not json", r"not valid JSON"),
    ([1, 2], r"expected a JSON object of languages"),
    ({"Spanish": GOOD}, r"language 'Spanish': the key must be a lower-case ISO 639 code"),
    ({"es": dict(GOOD, abstian=["x"])}, r"language 'es': unknown field\(s\) \['abstian'\]"),
    ({"es": {k: v for k, v in GOOD.items() if k != "commit"}}, r"missing field\(s\) \['commit'\]"),
    ({"es": dict(GOOD, abstain="no sé")}, r"'abstain' must be a list of strings"),
    ({"es": dict(GOOD, abstain=["no sé", 3])},
     r"language 'es': abstain\[1\] must be a non-empty string"),
    ({"es": dict(GOOD, veto=["(?:casi nadie"])}, r"language 'es': veto\[0\] is not a valid regular "
                                                 r"expression .*'\(\?:casi nadie'"),
    ({"es": dict(GOOD, sources=[])}, r"'sources' must name at least one source"),
])
def test_malformed_data_fails_clearly(tmp_path, data, message):
    path = _write(tmp_path, data)
    with pytest.raises(RlvrError, match=message) as info:
        load_languages(path)
    assert str(info.value).startswith(path)  # the message names the file


def test_loader_reads_a_good_file(tmp_path):
    languages = load_languages(_write(tmp_path, {"es": GOOD}))
    assert languages["es"]["scoped"] == [] and languages["es"]["veto"] == []
    assert language_patterns("abstain", languages) == ("no sé",)
    with pytest.raises(RlvrError, match="cannot read"):
        load_languages(tmp_path / "missing.json")
