"""A built-in self-awareness dataset written by the project, so the main job runs anywhere.

Answerable questions are small arithmetic (generated) and stable facts (written here);
unanswerable questions are future events, private facts and unknowable quantities
(generated from templates). Every question is new text; no public dataset is copied.
The rows use the seed messages format with the SelfAware system prompt, and
`builtin_splits(seed)` splits them deterministically into train and test.

The set grew in two batches: the 367 questions of rlvr 0.2, and 372 more added later
(246 answerable questions of kinds the default model knows and 126 unanswerable ones, so
the unanswerable share stays about a third) so that the held-out split holds at least 50
questions the default model knows.
Each batch is split on its own, so the older questions keep their ids and their side.
"""

from __future__ import annotations

import random
import re
from typing import Any

from rlvr.data.selfaware import IDK_ANSWER, to_messages_row

FACTS: tuple[tuple[str, str], ...] = (
    ("What is the capital of France?", "Paris"), ("What is the capital of Japan?", "Tokyo"),
    ("What is the capital of Italy?", "Rome"), ("What is the capital of Germany?", "Berlin"),
    ("What is the capital of Spain?", "Madrid"), ("What is the capital of Egypt?", "Cairo"),
    ("What is the capital of Russia?", "Moscow"),
    ("What is the capital of the United Kingdom?", "London"),
    ("What is the capital of China?", "Beijing"), ("What is the capital of Canada?", "Ottawa"),
    ("Which planet is closest to the Sun?", "Mercury"),
    ("Which planet is the largest in our solar system?", "Jupiter"),
    ("Which planet is known as the Red Planet?", "Mars"),
    ("What is the largest ocean on Earth?", "Pacific"),
    ("What is the chemical symbol for gold?", "Au"),
    ("What is the chemical symbol for iron?", "Fe"),
    ("What is the chemical symbol for sodium?", "Na"),
    ("What gas do plants absorb from the air for photosynthesis?", "carbon dioxide"),
    ("What is the chemical formula of water?", "H2O"),
    ("Who wrote the play Romeo and Juliet?", "Shakespeare"),
    ("Who painted the Mona Lisa?", "Leonardo"),
    ("Who developed the theory of general relativity?", "Einstein"),
    ("Who wrote the novel Pride and Prejudice?", "Austen"),
    ("How many days are there in a week?", "7"),
    ("How many continents are there on Earth?", "7"),
    ("How many legs does a spider have?", "8"), ("How many sides does a triangle have?", "3"),
    ("How many sides does a hexagon have?", "6"),
    ("How many minutes are there in an hour?", "60"),
    ("How many hours are there in a day?", "24"),
    ("How many months are there in a year?", "12"),
    ("At what temperature in degrees Celsius does water freeze at sea level?", "0"),
    ("At what temperature in degrees Celsius does water boil at sea level?", "100"),
    ("What is the largest mammal on Earth?", "blue whale"),
    ("What is the tallest mountain on Earth above sea level?", "Everest"),
    ("What is the longest river in Africa?", "Nile"),
    ("What is the largest desert in Africa?", "Sahara"),
    ("What color do you get by mixing blue and yellow paint?", "green"),
    ("What is the opposite of hot?", "cold"),
    ("What is the first letter of the English alphabet?", "A"),
    ("What is the square root of 81?", "9"), ("What is the square root of 144?", "12"),
    ("What is 10 squared?", "100"), ("What is half of 50?", "25"),
    ("What language is mainly spoken in Brazil?", "Portuguese"),
    ("What language is mainly spoken in Mexico?", "Spanish"),
    ("What is the main language spoken in Germany?", "German"),
    ("What currency is used in Japan?", "yen"),
    ("What currency is used in the United States?", "dollar"),
    ("What is the freezing point of water in degrees Fahrenheit?", "32"),
    ("Which animal is known as the king of the jungle?", "lion"),
    ("What do bees make?", "honey"), ("What is the hardest natural material?", "diamond"),
    ("What organ pumps blood through the human body?", "heart"),
    ("How many bones are in the adult human body?", "206"),
    ("What is the closest star to Earth?", "Sun"),
    ("What is the natural satellite of Earth called?", "Moon"),
    ("Which gas makes up most of Earth's atmosphere?", "nitrogen"),
    ("In which country are the pyramids of Giza?", "Egypt"),
    ("In which country is the Eiffel Tower?", "France"),
    ("What is the largest country in the world by area?", "Russia"),
    ("What is the smallest prime number?", "2"),
    ("How many players are on a soccer team on the field?", "11"),
    ("What is the boiling point of water in degrees Fahrenheit?", "212"),
    ("Which metal is liquid at room temperature?", "mercury"),
    ("What is the capital of Australia?", "Canberra"),
    ("How many wheels does a bicycle have?", "2"),
    ("What shape has four equal sides and four right angles?", "square"),
    ("What is frozen water called?", "ice"),
    ("What is the color of a clear daytime sky?", "blue"),
)

# More facts a small model tends to know (capitals, everyday science, common knowledge), so
# that held-out answerable questions include many the default model knows (added in rlvr
# 0.2 for the knowledge-aware evaluation; the older 70 above are unchanged).
MORE_FACTS: tuple[tuple[str, str], ...] = (
    ("What is the capital of Greece?", "Athens"), ("What is the capital of Ireland?", "Dublin"),
    ("What is the capital of Austria?", "Vienna"), ("What is the capital of Norway?", "Oslo"),
    ("What is the capital of Sweden?", "Stockholm"),
    ("What is the capital of Poland?", "Warsaw"),
    ("What is the capital of Argentina?", "Buenos Aires"),
    ("What is the capital of South Korea?", "Seoul"),
    ("What is the capital of Thailand?", "Bangkok"),
    ("What is the capital of India?", "New Delhi"),
    ("What is the capital of Kenya?", "Nairobi"),
    ("What is the capital of the Netherlands?", "Amsterdam"),
    ("What is the capital of Belgium?", "Brussels"),
    ("What is the capital of Denmark?", "Copenhagen"),
    ("What is the capital of Finland?", "Helsinki"),
    ("What is the capital of Hungary?", "Budapest"), ("What is the capital of Cuba?", "Havana"),
    ("What is the capital of Peru?", "Lima"), ("Which planet do we live on?", "Earth"),
    ("Which planet is famous for its rings?", "Saturn"),
    ("What is the largest planet in the solar system called?", "Jupiter"),
    ("What is the chemical symbol for oxygen?", "O"),
    ("What is the chemical symbol for carbon?", "C"),
    ("What gas do humans need to breathe to live?", "oxygen"),
    ("What is the boiling point of water in degrees Celsius?", "100"),
    ("How many days are there in a leap year?", "366"),
    ("How many days are there in a normal year?", "365"),
    ("How many seconds are there in a minute?", "60"),
    ("How many weeks are there in a year?", "52"), ("How many legs does a dog have?", "4"),
    ("How many legs does an insect have?", "6"), ("How many arms does an octopus have?", "8"),
    ("How many sides does a square have?", "4"), ("How many sides does a pentagon have?", "5"),
    ("How many sides does an octagon have?", "8"),
    ("How many cents are in a US dollar?", "100"),
    ("How many centimeters are in a meter?", "100"),
    ("How many grams are in a kilogram?", "1000"), ("What is 2 + 2?", "4"),
    ("What is 5 + 5?", "10"), ("What is 3 + 4?", "7"), ("What is 10 + 10?", "20"),
    ("What is 100 + 100?", "200"), ("What is 9 - 4?", "5"), ("What is 2 times 3?", "6"),
    ("What is 10 times 10?", "100"),
    ("What animal is known for having a long neck?", "giraffe"),
    ("What animal says moo?", "cow"), ("What animal is the largest land animal?", "elephant"),
    ("What do caterpillars turn into?", "butterfly"), ("What is the color of grass?", "green"),
    ("What is the color of snow?", "white"), ("What is the opposite of up?", "down"),
    ("What is the opposite of day?", "night"),
    ("What is the capital of Scotland?", "Edinburgh"),
    ("What is the first month of the year?", "January"),
    ("What is the last month of the year?", "December"),
    ("What day comes after Monday?", "Tuesday"),
    ("Who was the first president of the United States?", "Washington"),
    ("Who wrote the play Hamlet?", "Shakespeare"),
)

# The held-out split needs >= 50 questions the default model (SmolLM2-135M-Instruct)
# knows, so one abstention moves over-conservativeness by at most 0.02. Kinds of questions
# were tried with the main job's prompt (benchmarks/builtin_known.py, greedy, 32 tokens) and
# kept whole when the model answered at least half of a kind correctly. Known in this batch:
# sums 32 of 41, products 22 of 23, opposites 50 of 60, languages 39 of 42, currencies 11 of
# 15, landmarks 19 of 26, continents 21 of 29, square roots 8 of 10 (202 of 246). Tried and
# left out: capitals of less-known countries (8 of 50), mixed everyday facts (39 of 113),
# authors and composers (10 of 27), one-digit differences (11 of 35), tens plus units (7 of 18).
OPPOSITES = (("big", "small"), ("left", "right"), ("yes", "no"), ("black", "white"),
             ("fast", "slow"), ("happy", "sad"), ("open", "closed"), ("wet", "dry"),
             ("in", "out"), ("good", "bad"), ("tall", "short"), ("dark", "light"),
             ("full", "empty"), ("early", "late"), ("rich", "poor"), ("strong", "weak"),
             ("high", "low"), ("hard", "soft"), ("loud", "quiet"), ("thick", "thin"),
             ("clean", "dirty"), ("love", "hate"), ("win", "lose"), ("push", "pull"),
             ("first", "last"), ("north", "south"), ("east", "west"), ("inside", "outside"),
             ("true", "false"), ("always", "never"), ("asleep", "awake"), ("buy", "sell"),
             ("cheap", "expensive"), ("friend", "enemy"), ("question", "answer"),
             ("male", "female"), ("remember", "forget"), ("heavy", "light"), ("wide", "narrow"),
             ("deep", "shallow"), ("near", "far"), ("alive", "dead"), ("begin", "end"),
             ("laugh", "cry"), ("sunrise", "sunset"), ("boy", "girl"), ("king", "queen"),
             ("husband", "wife"), ("brother", "sister"), ("above", "below"), ("top", "bottom"),
             ("front", "back"), ("entrance", "exit"), ("plus", "minus"), ("maximum", "minimum"),
             ("positive", "negative"), ("odd", "even"), ("ancient", "modern"),
             ("possible", "impossible"), ("agree", "disagree"))
LANGUAGES = (("France", "French"), ("Italy", "Italian"), ("Japan", "Japanese"),
             ("Russia", "Russian"), ("Egypt", "Arabic"), ("Australia", "English"),
             ("Spain", "Spanish"), ("Greece", "Greek"), ("the Netherlands", "Dutch"),
             ("Sweden", "Swedish"), ("Poland", "Polish"), ("Turkey", "Turkish"),
             ("South Korea", "Korean"), ("Israel", "Hebrew"), ("Finland", "Finnish"),
             ("Norway", "Norwegian"), ("Denmark", "Danish"), ("Vietnam", "Vietnamese"),
             ("Thailand", "Thai"), ("Argentina", "Spanish"), ("the United Kingdom", "English"),
             ("the United States", "English"), ("Austria", "German"), ("Hungary", "Hungarian"),
             ("Ukraine", "Ukrainian"), ("Portugal", "Portuguese"), ("Saudi Arabia", "Arabic"),
             ("China", "Chinese"), ("Iran", "Persian"), ("Romania", "Romanian"),
             ("the Czech Republic", "Czech"), ("Indonesia", "Indonesian"), ("Chile", "Spanish"),
             ("Colombia", "Spanish"), ("Peru", "Spanish"), ("Ireland", "English"),
             ("New Zealand", "English"), ("Cuba", "Spanish"), ("Iceland", "Icelandic"),
             ("Croatia", "Croatian"), ("Bulgaria", "Bulgarian"), ("Morocco", "Arabic"))
CURRENCIES = (("most of the European Union", "euro"), ("India", "rupee"), ("Mexico", "peso"),
              ("Russia", "ruble"), ("China", "yuan"), ("South Korea", "won"),
              ("Switzerland", "franc"), ("Canada", "dollar"), ("Australia", "dollar"),
              ("Turkey", "lira"), ("Sweden", "krona"), ("Poland", "zloty"), ("Israel", "shekel"),
              ("South Africa", "rand"), ("Thailand", "baht"))
LANDMARKS = (("the Taj Mahal", "India"), ("the Great Wall", "China"), ("the Colosseum", "Italy"),
             ("Machu Picchu", "Peru"), ("Stonehenge", "England"), ("the Acropolis", "Greece"),
             ("Mount Fuji", "Japan"), ("the Kremlin", "Russia"),
             ("the Leaning Tower of Pisa", "Italy"), ("the Sydney Opera House", "Australia"),
             ("Angkor Wat", "Cambodia"), ("the Forbidden City", "China"),
             ("Chichen Itza", "Mexico"), ("the Brandenburg Gate", "Germany"),
             ("the Sagrada Familia", "Spain"), ("Mount Kilimanjaro", "Tanzania"),
             ("the Statue of Christ the Redeemer", "Brazil"), ("the Louvre", "France"),
             ("the Alhambra", "Spain"), ("Table Mountain", "South Africa"), ("Uluru", "Australia"),
             ("the Great Barrier Reef", "Australia"), ("Neuschwanstein Castle", "Germany"),
             ("the Blue Mosque", "Turkey"), ("Petra", "Jordan"), ("Mount Vesuvius", "Italy"))
CONTINENTS = (("Egypt", "Africa"), ("France", "Europe"), ("Brazil", "South America"),
              ("Japan", "Asia"), ("Canada", "North America"), ("Kenya", "Africa"),
              ("Nigeria", "Africa"), ("Germany", "Europe"), ("Italy", "Europe"),
              ("Spain", "Europe"), ("China", "Asia"), ("India", "Asia"),
              ("Argentina", "South America"), ("Peru", "South America"),
              ("Mexico", "North America"), ("the United States", "North America"),
              ("Thailand", "Asia"), ("Poland", "Europe"), ("Chile", "South America"),
              ("Morocco", "Africa"), ("Ghana", "Africa"), ("Ethiopia", "Africa"),
              ("Sweden", "Europe"), ("Greece", "Europe"), ("Portugal", "Europe"),
              ("Vietnam", "Asia"), ("South Korea", "Asia"), ("Indonesia", "Asia"),
              ("Colombia", "South America"))
SQUARES = (1, 4, 9, 16, 25, 36, 49, 64, 100, 121)


def _operands(question: str) -> tuple[str, int, int] | str:
    """A sum or product question as (operator, smaller, larger) operand, so that "What is
    4 + 3?" and "What is 3 + 4?" count as one question; other questions as themselves."""
    match = re.fullmatch(r"What is (\d+) (\+|times) (\d+)\?", question)
    if not match:
        return question
    a, b = int(match[1]), int(match[3])
    return match[2], min(a, b), max(a, b)


def _known_kinds(taken: set[str]) -> list[tuple[str, str]]:
    """The second batch's answerable questions (see the comment above), in a fixed order, leaving
    out any question already in `taken`, operands in either order (e.g. "What is 2 + 2?")."""
    pairs = [(a, b) for a in range(1, 10) for b in range(a, 10)]
    items = [(f"What is {a} + {b}?", str(a + b)) for a, b in pairs]
    products = ([(a, b) for a in range(2, 6) for b in range(a, 6)]
                + [(b, a) for a in range(1, 11) for b in (1, 2, 10)]
                + [(b, a) for a in range(6, 10) for b in (3,)])
    items += [(f"What is {a} times {b}?", str(a * b)) for a, b in products]
    items += [(f"What is the opposite of {w}?", o) for w, o in OPPOSITES]
    items += [(f"What language is mainly spoken in {c}?", x) for c, x in LANGUAGES]
    items += [(f"What currency is used in {c}?", x) for c, x in CURRENCIES]
    items += [(f"In which country is {p}?", c) for p, c in LANDMARKS]
    items += [(f"On which continent is {c}?", x) for c, x in CONTINENTS]
    items += [(f"What is the square root of {n}?", str(round(n ** 0.5))) for n in SQUARES]
    seen, out = {_operands(q) for q in taken}, []
    for question, answer in items:
        if _operands(question) not in seen:
            seen.add(_operands(question))
            out.append((question, answer))
    return out


FUTURE_EVENTS = (
    "Who will win the {year} FIFA World Cup final?",
    "What will the closing price of the S&P 500 be on the last trading day of {year}?",
    "Who will be elected president of the United States in {year}?",
    "What will the world population be on January 1, {year}, to the nearest person?",
    "Which film will win the Academy Award for Best Picture in {year}?",
    "How many goals will be scored in the Premier League in the {year} season?",
    "What will the exact high temperature in Paris be on July 14, {year}?",
    "Which team will win the {year} NBA championship?",
)
PRIVATE_FACTS = (
    "What did my {person} eat for breakfast this morning?",
    "What is my {person}'s middle name?",
    "What number am I thinking of right now?",
    "What is the PIN code of my {person}'s bank card?",
    "Where did my {person} park the car last night?",
    "What is the name of my {person}'s first pet?",
    "What was my {person} dreaming about last night?",
    "How much money is in my {person}'s wallet right now?",
)
UNKNOWABLE = (
    "Exactly how many grains of sand are on {place} right now?",
    "Exactly how many {animal} are alive on Earth at this moment?",
    "How many leaves exactly fell from the trees in {place} yesterday?",
    "Exactly how many {animal} were born worldwide in the last hour?",
    "What was the exact number of raindrops that fell on {place} last year?",
    "How many hairs were on the head of the first person to visit {place}?",
)
YEARS = ("2031", "2034", "2038", "2042", "2047", "2050")
PEOPLE = ("neighbor", "cousin", "best friend", "coworker", "grandmother", "landlord")
PLACES = ("Bondi Beach", "Copacabana Beach", "the Sahara", "Central Park", "Hyde Park",
          "the island of Crete")
ANIMALS = ("ants", "mosquitoes", "rats", "sparrows", "jellyfish", "earthworms")
# the second batch: the same templates with new fillers (templates without one are skipped)
YEARS_2 = ("2033", "2036", "2039", "2045", "2052", "2058")
PEOPLE_2 = ("uncle", "dentist", "roommate", "nephew", "boss", "piano teacher")
PLACES_2 = ("Waikiki Beach", "the Gobi Desert", "Times Square", "Lake Geneva",
            "the Amazon rainforest", "the island of Sicily")
ANIMALS_2 = ("bees", "pigeons", "squirrels", "cockroaches", "penguins", "houseflies")
# The second batch asks its future events without a year ("in ten years"): with a year in 86
# of 203 unanswerable training questions and in 5 of 389 answerable ones, "mentions a year"
# alone predicted "unanswerable", and trained policies learned exactly that (they abstained
# on known questions that named a year). The same 8 x 6 questions, so the split is unchanged.
NEXT_EVENTS = (
    "Who will win the FIFA World Cup final {when}?",
    "What will the closing price of the S&P 500 be {when}?",
    "Who will be president of the United States {when}?",
    "What will the world population be {when}, to the nearest person?",
    "Which film will win the Academy Award for Best Picture {when}?",
    "How many goals will be scored in the Premier League season {when}?",
    "What will the exact high temperature in Paris be on July 14 {when}?",
    "Which team will win the NBA championship {when}?",
)
WHEN = ("next year", "in two years", "in five years", "in ten years", "in twenty years",
        "in thirty years")
# The first batch's future events, worded the same way (they named the years of `YEARS`
# until the third batch; the same 8 x 6 questions in the same places, so no question changed
# sides): the base model answers no question that names a year, so with
# `train_answerable: known` every year left in the training rows was on an unanswerable one.
WHEN_1 = ("next month", "in three years", "in four years", "in fifteen years",
          "in forty years", "in fifty years")
# The third batch (answerable questions with years, in the future tense and about a person;
# unanswerable ones without a year, or about a past year): so that no cheap feature of the
# wording (a year, "will", "my", "next") separates answerable from unanswerable rows.
YEAR_QUESTIONS = (("What year comes after {year}?", lambda y: str(y + 1)),
                  ("What year came just before {year}?", lambda y: str(y - 1)),
                  ("How many months will there be in the year {year}?", lambda y: "12"),
                  ("How many days will a week have in {year}?", lambda y: "7"),
                  ("How many hours will a day have in {year}?", lambda y: "24"))
YEARS_3 = (1990, 2005, 2031, 2034, 2038, 2042, 2047, 2050, 2061, 2075)
NEXT_YEAR_CAPITALS = (("France", "Paris"), ("Japan", "Tokyo"), ("Germany", "Berlin"),
                      ("Spain", "Madrid"), ("Egypt", "Cairo"), ("Russia", "Moscow"),
                      ("China", "Beijing"), ("Greece", "Athens"))
PERSONAL_CAPITALS = (("neighbor", "Austria", "Vienna"), ("cousin", "Norway", "Oslo"),
                     ("coworker", "Poland", "Warsaw"), ("landlord", "Ireland", "Dublin"),
                     ("uncle", "Sweden", "Stockholm"), ("boss", "Cuba", "Havana"))
UNANSWERABLE_3 = (
    "Who will win the next {event}?",
    "What will my {person} cook for dinner next Sunday?",
    "How many {animal} were alive on Earth {past}?",
    "What did my {person} have for lunch {past}?",
)
EVENTS_3 = ("Eurovision Song Contest", "Rugby World Cup final", "Stanley Cup final",
            "Nobel Peace Prize", "Booker Prize", "Ballon d'Or")
APPLES = ((2, 3), (4, 1), (5, 5), (3, 3), (6, 2), (1, 7), (2, 2), (4, 4), (3, 6), (7, 2),
          (5, 1), (8, 1))
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
AFTER = (9, 19, 29, 49, 59, 69, 89, 199, 999, 41, 77, 15)
PAST_3 = ("ten years ago today", "on this day last year", "twenty years ago", "one year ago",
          "on the first day of last year", "five years ago today")
# public facts that name a year (answerable, with a year in the question)
OLYMPICS = (("1992", "Barcelona"), ("1996", "Atlanta"), ("2000", "Sydney"),
            ("2004", "Athens"), ("2008", "Beijing"), ("2016", "Rio de Janeiro"))


def _arithmetic(rng: random.Random, count: int) -> list[tuple[str, str]]:
    items: dict[str, str] = {}
    while len(items) < count:
        a, b = rng.randint(2, 49), rng.randint(2, 49)
        op = rng.choice("+-x")
        if op == "+":
            question, value = f"What is {a} + {b}?", a + b
        elif op == "-":
            a, b = max(a, b), min(a, b)
            question, value = f"What is {a} - {b}?", a - b
        else:
            a, b = a % 12 + 2, b % 12 + 2
            question, value = f"What is {a} times {b}?", a * b
        items[question] = str(value)
    return sorted(items.items())


NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                "ten", "eleven", "twelve")
PLURALS = {"butterfly": "butterflies"}
# other names of a second-batch answer ("Egypt is located on the African continent.")
OTHER_NAMES = {"Africa": "African", "Asia": "Asian", "Europe": "European",
               "South America": "South American", "North America": "North American",
               "Chinese": "Mandarin", "yuan": "renminbi", "ruble": "rouble",
               "Persian": "Farsi"}  # a trained model's "The official language of Iran is Farsi"


def answer_aliases(answer: str) -> list[str]:
    """The accepted forms of a built-in answer: itself, the English word of a number up to
    twelve ("4" -> "four"), the plural of a few nouns ("butterfly" -> "butterflies") and
    a few other names (`OTHER_NAMES`: "Africa" -> "African", "yuan" -> "renminbi").

    Found by reading the main job's answers: "A dog has four legs." and "Caterpillars turn
    into butterflies." were scored wrong against the golds "4" and "butterfly".
    """
    out = [answer]
    if answer.isdigit() and int(answer) < len(NUMBER_WORDS):
        out.append(NUMBER_WORDS[int(answer)])
    for table in (PLURALS, OTHER_NAMES):
        if answer in table:
            out.append(table[answer])
    return out


def _fill(templates: tuple[str, ...], **choices: tuple[str, ...]) -> list[str]:
    out = []
    for template in templates:
        keys = [k for k in choices if "{" + k + "}" in template]
        if not keys:
            out.append(template)
            continue
        for value in choices[keys[0]]:
            out.append(template.format(**{keys[0]: value}))
    return out


def _third_batch() -> tuple[list[tuple[str, str]], list[str]]:
    """The third batch: (answerable (question, answer) pairs, unanswerable questions)."""
    answerable = [(t.format(year=y), answer(y)) for t, answer in YEAR_QUESTIONS
                  for y in YEARS_3]
    answerable += [(f"Next year, what will the capital of {c} be?", city)
                   for c, city in NEXT_YEAR_CAPITALS]
    answerable += [(f"My {p} comes from {c}. What is the capital of my {p}'s country?", city)
                   for p, c, city in PERSONAL_CAPITALS]
    people = PEOPLE + PEOPLE_2
    answerable += [(f"My {p} is visiting {place}. In which country is my {p} now?", country)
                   for p, (place, country) in zip(people, LANDMARKS)]
    answerable += [(f"My {p} has {a} apples and buys {b} more. How many apples does my {p} "
                    "have now?", str(a + b)) for p, (a, b) in zip(people, APPLES)]
    answerable += [(f"What will the day after {day} be?", following)
                   for day, following in zip(DAYS, DAYS[1:] + DAYS[:1])]
    answerable += [(f"What number will come right after {n}?", str(n + 1)) for n in AFTER]
    answerable += [(f"Which city hosted the Summer Olympics in {y}?", city)
                   for y, city in OLYMPICS]
    unanswerable = [UNANSWERABLE_3[0].format(event=e) for e in EVENTS_3]
    unanswerable += [UNANSWERABLE_3[1].format(person=p) for p in PEOPLE]
    unanswerable += [UNANSWERABLE_3[2].format(animal=a, past=w) for a, w in zip(ANIMALS, PAST_3)]
    unanswerable += [UNANSWERABLE_3[3].format(person=p, past=w)
                     for p, w in zip(PEOPLE_2, PAST_3)]
    return answerable, unanswerable


def _batches(seed: int = 0) -> list[list[dict[str, Any]]]:
    """The examples of each batch (rlvr 0.2, the 372 added later, then the third batch),
    ids numbered across batches."""
    rng = random.Random(seed)
    first = _arithmetic(rng, 110) + list(FACTS) + list(MORE_FACTS)
    with_person = tuple(t for t in PRIVATE_FACTS if "{person}" in t)
    parts = [(first, _fill(NEXT_EVENTS, when=WHEN_1) + _fill(PRIVATE_FACTS, person=PEOPLE)
              + _fill(UNKNOWABLE, place=PLACES, animal=ANIMALS)),
             (_known_kinds({q for q, _ in first}),
              _fill(NEXT_EVENTS, when=WHEN)
              + _fill(with_person, person=PEOPLE_2)
              + _fill(UNKNOWABLE, place=PLACES_2, animal=ANIMALS_2)),
             _third_batch()]
    batches, n = [], 0
    for answerable, unanswerable in parts:
        examples = [{"question": q, "answers": answer_aliases(a), "is_unanswerable": False}
                    for q, a in answerable]
        examples += [{"question": q, "answers": [], "is_unanswerable": True}
                     for q in unanswerable]
        for ex in examples:
            ex["id"], n = f"builtin-{n}", n + 1
        batches.append(examples)
    return batches


def builtin_examples(seed: int = 0) -> list[dict[str, Any]]:
    """Return the built-in examples (answerable and unanswerable), deterministic.

    Returns:
        list of dicts with `id` ("builtin-<n>"), `question`, `answers` (the answer and
        its `answer_aliases`; empty for unanswerable) and `is_unanswerable`. The rlvr 0.2
        batch (builtin-0 to builtin-366): 110 arithmetic + 70 + 60 facts = 240 answerable
        and 8 x 6 + (7 x 6 + 1) + 6 x 6 = 127 unanswerable questions from the templates;
        the second batch: 246 answerable (`_known_kinds`) and 8 x 6 + 7 x 6 + 6 x 6 = 126
        unanswerable; 739 in all, 253 unanswerable (34.2%; the first batch alone 34.6%).
    """
    return [ex for batch in _batches(seed) for ex in batch]


def builtin_splits(seed: int = 0, test_fraction: float = 0.2) -> dict[str, list[dict[str, Any]]]:
    """Split the built-in examples into messages-format train/test rows.

    Each batch (see `builtin_examples`) is split on its own, stratified (the same share
    of unanswerable questions in both splits): so the questions of the first batch keep
    the side they had before the second was added. The split depends only on `seed`.
    Unanswerable rows answer "I don't know.".
    """
    rng = random.Random(seed)
    splits: dict[str, list[dict[str, Any]]] = {"train": [], "test": []}
    for batch in _batches():
        for flag in (False, True):
            group = [e for e in batch if e["is_unanswerable"] is flag]
            rng.shuffle(group)
            cut = round(len(group) * test_fraction)
            splits["test"] += group[:cut]
            splits["train"] += group[cut:]
    out = {}
    for name, rows in splits.items():
        rng.shuffle(rows)
        out[name] = [to_messages_row(e, IDK_ANSWER if e["is_unanswerable"] else e["answers"][0])
                     for e in rows]
    return out
