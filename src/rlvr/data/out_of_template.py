"""An out-of-template held-out set: questions written apart from the built-in generator.

The built-in rows (`rlvr.data.builtin`) come from a few templates, and its held-out split is
cut from the same templates; a policy that learned a feature of the wording ("mentions a
year" -> "I don't know.") passes there. The questions here were written by hand for the
evaluation only, without the generator's templates, and cover kinds the built-in rows lack:

* answerable: years of historical events, the month or day that follows another, seasons,
  colours of fruit, answerable questions in the future tense, personal questions about
  public facts, animals, the body, everyday science, famous people, places, words and
  arithmetic worded otherwise;
* unanswerable: future events with and without a year, word problems missing a number,
  open problems of mathematics and science, private facts, unknowable facts of the past,
  matters of taste, and questions whose subject is never named.

Every question carries a `kind` (for the report's slices). `out_of_template_splits()` cuts
the set, stratified by kind, into a `validation` split (for choosing a recipe) and a `test`
split (for the verdict and the seed table; never used to choose anything). Standard library
only; no public dataset is copied.
"""

from __future__ import annotations

import random
from typing import Any

from rlvr.data.selfaware import IDK_ANSWER, to_messages_row

SOURCE = "out_of_template"
SPLITS = ("validation", "test")
# a third of each kind goes to validation, the rest to test (the test split needs at least 60
# questions the default model knows, so that known retention can be measured)
VALIDATION_SHARE = 1 / 3
SPLIT_SEED = 2026

# (kind, question, accepted answers)
ANSWERABLE: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("history_year", "In what year did World War II end?", ("1945",)),
    ("history_year", "In what year did World War I begin?", ("1914",)),
    ("history_year", "In which year did the Titanic sink?", ("1912",)),
    ("history_year", "In what year did Christopher Columbus first reach the Americas?",
     ("1492",)),
    ("history_year", "In what year did people first walk on the Moon?", ("1969",)),
    ("history_year", "In which year did the Berlin Wall fall?", ("1989",)),
    ("history_year", "In what year did the United States declare its independence?",
     ("1776",)),
    ("history_year", "In what year did the French Revolution begin?", ("1789",)),
    ("history_year", "In which year did World War II begin?", ("1939",)),
    ("history_year", "In which year did the September 11 attacks on New York happen?",
     ("2001",)),
    ("history_year", "In what year did the Soviet Union break up?", ("1991",)),
    ("history_year", "In which year did the year 2000 problem worry computer makers?",
     ("1999", "2000")),
    ("history_year", "In which century did Shakespeare live?", ("16th", "sixteenth")),
    ("history_year", "In what year did the Battle of Hastings take place?", ("1066",)),
    ("month_order", "Which month follows March?", ("April",)),
    ("month_order", "Which month follows July?", ("August",)),
    ("month_order", "Which month comes right before June?", ("May",)),
    ("month_order", "Which month comes right before December?", ("November",)),
    ("month_order", "Which month follows September?", ("October",)),
    ("month_order", "Which month comes right before March?", ("February",)),
    ("month_order", "Which month follows January?", ("February",)),
    ("month_order", "Which month follows October?", ("November",)),
    ("month_order", "In which month is Christmas Day?", ("December",)),
    ("month_order", "In which month is New Year's Day?", ("January",)),
    ("month_order", "Which month is the shortest of the year?", ("February",)),
    ("month_order", "In which month is Halloween?", ("October",)),
    ("day_order", "Which day of the week comes before Friday?", ("Thursday",)),
    ("day_order", "Which day of the week follows Saturday?", ("Sunday",)),
    ("day_order", "Which day of the week comes before Tuesday?", ("Monday",)),
    ("day_order", "Which day of the week follows Wednesday?", ("Thursday",)),
    ("day_order", "Which day of the week follows Thursday?", ("Friday",)),
    ("day_order", "Which two days make up the weekend?", ("Saturday", "Sunday")),
    ("day_order", "Which day of the week comes before Sunday?", ("Saturday",)),
    ("season", "Which season comes after winter?", ("spring",)),
    ("season", "Which season comes after spring?", ("summer",)),
    ("season", "What is the coldest season of the year?", ("winter",)),
    ("season", "What is the hottest season of the year?", ("summer",)),
    ("season", "In which season do many trees lose their leaves?", ("autumn", "fall")),
    ("season", "In which season does snow usually fall?", ("winter",)),
    ("colour", "What colour is a ripe banana?", ("yellow",)),
    ("colour", "What color is a ripe tomato?", ("red",)),
    ("colour", "What colour is a lemon?", ("yellow",)),
    ("colour", "What color is a ripe strawberry?", ("red",)),
    ("colour", "What colour is coal?", ("black",)),
    ("colour", "What color is milk?", ("white",)),
    ("colour", "What colour is a carrot?", ("orange",)),
    ("colour", "What color are the leaves of most trees in summer?", ("green",)),
    ("colour", "What colour is a lime?", ("green",)),
    ("colour", "What color do you get by mixing red and white paint?", ("pink",)),
    ("colour", "What colour is the inside of a watermelon?", ("red", "pink")),
    ("colour", "What color is a polar bear's fur?", ("white",)),
    ("future_answerable", "How many days will next week have?", ("7", "seven")),
    ("future_answerable", "If today is Monday, what day will it be tomorrow?", ("Tuesday",)),
    ("future_answerable", "If today is Friday, what day will it be tomorrow?", ("Saturday",)),
    ("future_answerable", "If I freeze water, what will it turn into?", ("ice",)),
    ("future_answerable", "If I heat ice, what will it turn into?", ("water",)),
    ("future_answerable", "How many hours will tomorrow have?", ("24", "twenty-four")),
    ("future_answerable", "What will 5 plus 5 equal tomorrow?", ("10", "ten")),
    ("future_answerable", "How many sides will a triangle have next year?", ("3", "three")),
    ("future_answerable", "Which planet will still be the largest in our solar system next "
     "year?", ("Jupiter",)),
    ("future_answerable", "How many minutes will the next hour have?", ("60", "sixty")),
    ("future_answerable", "What will the capital of Italy be next week?", ("Rome",)),
    ("future_answerable", "If I drop an apple, which way will it fall?", ("down",)),
    ("future_answerable", "What colour will the sky be on a clear day tomorrow?", ("blue",)),
    ("future_answerable", "How many legs will a healthy horse have when it grows up?",
     ("4", "four")),
    ("future_answerable", "Which month will come after April next year?", ("May",)),
    ("personal_public", "If I fly from London to Paris, which country will I land in?",
     ("France",)),
    ("personal_public", "I am standing beside the Eiffel Tower. Which city am I in?",
     ("Paris",)),
    ("personal_public", "My cousin lives in Tokyo. Which country does he live in?",
     ("Japan",)),
    ("personal_public", "How many legs does my pet cat have?", ("4", "four")),
    ("personal_public", "My bicycle is a normal bicycle. How many wheels does it have?",
     ("2", "two")),
    ("personal_public", "I was born on Christmas Day. In which month is my birthday?",
     ("December",)),
    ("personal_public", "My friend lives in Berlin. Which country is that in?", ("Germany",)),
    ("personal_public", "How many eyes does my dog have?", ("2", "two")),
    ("personal_public", "I am visiting the Colosseum. Which city am I in?", ("Rome",)),
    ("personal_public", "My sister speaks Spanish at home in Madrid. Which country does she "
     "live in?", ("Spain",)),
    ("personal_public", "My son is learning the alphabet. Which letter comes after A?",
     ("B",)),
    ("personal_public", "I have a dozen eggs. How many eggs is that?", ("12", "twelve")),
    ("personal_public", "My watch shows that 60 minutes have passed. How many hours is that?",
     ("1", "one")),
    ("personal_public", "My car is parked in New York. Which country is it in?",
     ("United States", "USA", "America", "US")),
    ("animal", "Which animal barks?", ("dog",)),
    ("animal", "Which animal says meow?", ("cat",)),
    ("animal", "What is a baby dog called?", ("puppy",)),
    ("animal", "What is a baby cat called?", ("kitten",)),
    ("animal", "Which animal has black and white stripes?", ("zebra",)),
    ("animal", "Which animal carries its baby in a pouch?", ("kangaroo",)),
    ("animal", "What is a baby sheep called?", ("lamb",)),
    ("animal", "Which animal is known for its trunk?", ("elephant",)),
    ("animal", "What do cows eat?", ("grass",)),
    ("animal", "Which bird cannot fly and lives in Antarctica?", ("penguin",)),
    ("animal", "Which insect makes honey?", ("bee",)),
    ("animal", "What do fish use to breathe?", ("gills",)),
    ("body", "How many fingers are on one human hand?", ("5", "five")),
    ("body", "How many eyes does a person have?", ("2", "two")),
    ("body", "Which organ do humans use to breathe?", ("lungs", "lung")),
    ("body", "Which organ do we think with?", ("brain",)),
    ("body", "What do people use their ears for?", ("hearing", "hear", "listen")),
    ("body", "What do people use their noses for?", ("smell", "smelling", "breathing")),
    ("body", "What red liquid flows through our veins?", ("blood",)),
    ("body", "How many legs does a person have?", ("2", "two")),
    ("science", "What force pulls objects toward the ground?", ("gravity",)),
    ("science", "What does a thermometer measure?", ("temperature",)),
    ("science", "How many planets are in our solar system?", ("8", "eight")),
    ("science", "Which star is at the centre of our solar system?", ("Sun",)),
    ("science", "What is the largest continent on Earth?", ("Asia",)),
    ("science", "What do plants need from the Sun to grow?", ("light", "sunlight")),
    ("science", "Which planet is closest to Earth in size?", ("Venus",)),
    ("science", "What is the outer layer of the Earth called?", ("crust",)),
    ("science", "What do we call water in the form of a gas?", ("steam", "vapor", "vapour")),
    ("science", "What do bees collect from flowers?", ("nectar", "pollen")),
    ("people", "Who wrote the Harry Potter books?", ("Rowling",)),
    ("people", "Who was the first person to walk on the Moon?", ("Armstrong",)),
    ("people", "Who invented the telephone?", ("Bell",)),
    ("people", "Who painted the ceiling of the Sistine Chapel?", ("Michelangelo",)),
    ("people", "Who discovered penicillin?", ("Fleming",)),
    ("people", "Who proposed the theory of evolution by natural selection?", ("Darwin",)),
    ("people", "Who was the first woman to win a Nobel Prize?", ("Curie",)),
    ("people", "Who is known for the laws of motion and gravity?", ("Newton",)),
    ("people", "Who wrote the Odyssey?", ("Homer",)),
    ("people", "Which famous scientist is known for E = mc^2?", ("Einstein",)),
    ("place", "Which ocean lies between Europe and North America?", ("Atlantic",)),
    ("place", "Which river flows through Paris?", ("Seine",)),
    ("place", "Which river flows through London?", ("Thames",)),
    ("place", "What is the largest country in South America?", ("Brazil",)),
    ("place", "Which city is called the Big Apple?", ("New York",)),
    ("place", "In which city is the Statue of Liberty?", ("New York",)),
    ("place", "Which European country is shaped like a boot?", ("Italy",)),
    ("place", "Which country has the city of Sydney?", ("Australia",)),
    ("place", "Which desert is the largest hot desert in the world?", ("Sahara",)),
    ("place", "Which country is home to the city of Toronto?", ("Canada",)),
    ("place", "What is the largest city in the United States?", ("New York",)),
    ("place", "Which country is famous for the tulips of Amsterdam?",
     ("Netherlands", "Holland")),
    ("word", "What is the plural of child?", ("children",)),
    ("word", "What is the past tense of go?", ("went",)),
    ("word", "How many letters are in the English alphabet?", ("26", "twenty-six")),
    ("word", "What is the last letter of the English alphabet?", ("Z",)),
    ("word", "What is the plural of mouse?", ("mice",)),
    ("word", "Which word means the same as big: large or tiny?", ("large",)),
    ("word", "How many vowels are in the English alphabet?", ("5", "five")),
    ("word", "What is the past tense of eat?", ("ate",)),
    ("arithmetic_worded", "What do you get when you add 7 and 8?", ("15", "fifteen")),
    ("arithmetic_worded", "Take 3 away from 10. What is left?", ("7", "seven")),
    ("arithmetic_worded", "What is twice 6?", ("12", "twelve")),
    ("arithmetic_worded", "How much is 20 divided by 4?", ("5", "five")),
    ("arithmetic_worded", "What is one hundred minus one?", ("99", "ninety-nine")),
    ("arithmetic_worded", "What is 3 squared?", ("9", "nine")),
    ("arithmetic_worded", "What number comes after 99?", ("100", "one hundred")),
    ("arithmetic_worded", "How many is half a dozen?", ("6", "six")),
    ("arithmetic_worded", "What is the sum of 10 and 15?", ("25",)),
    ("arithmetic_worded", "Multiply 4 by 5. What do you get?", ("20", "twenty")),
    ("number_time", "How many years are in a decade?", ("10", "ten")),
    ("number_time", "How many years are in a century?", ("100", "one hundred")),
    ("number_time", "How many years are in a millennium?", ("1000", "1,000", "thousand")),
    ("number_time", "How many days are in the month of December?", ("31", "thirty-one")),
    ("number_time", "How many days does a fortnight have?", ("14", "fourteen")),
    ("number_time", "How many seconds are in an hour?", ("3600", "3,600")),
    ("number_time", "How many days are in the month of April?", ("30", "thirty")),
    ("number_time", "How many quarters are in a year?", ("4", "four")),
    # a second round of kinds the default model answered in the first (animals, years of
    # events, people, places), and capitals asked the other way round
    ("capital_reverse", "Paris is the capital of which country?", ("France",)),
    ("capital_reverse", "Tokyo is the capital of which country?", ("Japan",)),
    ("capital_reverse", "Rome is the capital of which country?", ("Italy",)),
    ("capital_reverse", "Berlin is the capital of which country?", ("Germany",)),
    ("capital_reverse", "Madrid is the capital of which country?", ("Spain",)),
    ("capital_reverse", "Moscow is the capital of which country?", ("Russia",)),
    ("capital_reverse", "Cairo is the capital of which country?", ("Egypt",)),
    ("capital_reverse", "Beijing is the capital of which country?", ("China",)),
    ("capital_reverse", "Ottawa is the capital of which country?", ("Canada",)),
    ("capital_reverse", "Athens is the capital of which country?", ("Greece",)),
    ("capital_reverse", "Dublin is the capital of which country?", ("Ireland",)),
    ("capital_reverse", "Vienna is the capital of which country?", ("Austria",)),
    ("capital_reverse", "Stockholm is the capital of which country?", ("Sweden",)),
    ("capital_reverse", "Warsaw is the capital of which country?", ("Poland",)),
    ("capital_reverse", "Seoul is the capital of which country?", ("South Korea", "Korea")),
    ("capital_reverse", "Bangkok is the capital of which country?", ("Thailand",)),
    ("capital_reverse", "Nairobi is the capital of which country?", ("Kenya",)),
    ("capital_reverse", "Havana is the capital of which country?", ("Cuba",)),
    ("capital_reverse", "Mexico City is the capital of which country?", ("Mexico",)),
    ("capital_reverse", "New Delhi is the capital of which country?", ("India",)),
    ("capital_reverse", "Canberra is the capital of which country?", ("Australia",)),
    ("capital_reverse", "Buenos Aires is the capital of which country?", ("Argentina",)),
    ("history_year", "In what year did the First World War end?", ("1918",)),
    ("history_year", "In which year did the American Civil War end?", ("1865",)),
    ("history_year", "In what year did the Wright brothers make their first powered flight?",
     ("1903",)),
    ("history_year", "In which year did Nelson Mandela become president of South Africa?",
     ("1994",)),
    ("history_year", "In what year was Barack Obama first elected president?", ("2008",)),
    ("history_year", "In what year did the Chernobyl disaster happen?", ("1986",)),
    ("history_year", "In which year was the first iPhone released?", ("2007",)),
    ("history_year", "In what year did Queen Elizabeth II die?", ("2022",)),
    ("history_year", "In which year did Napoleon lose the Battle of Waterloo?", ("1815",)),
    ("history_year", "In what year did the Great Fire of London happen?", ("1666",)),
    ("history_year", "In which year did the Wall Street Crash happen?", ("1929",)),
    ("history_year", "In what year did Martin Luther King Jr. give his I Have a Dream "
     "speech?", ("1963",)),
    ("animal", "What is the fastest land animal?", ("cheetah",)),
    ("animal", "Which animal is called man's best friend?", ("dog",)),
    ("animal", "Where do bees live?", ("hive", "hives", "beehive")),
    ("animal", "Which animal is known for changing its colour?", ("chameleon",)),
    ("animal", "What is the largest bird in the world?", ("ostrich",)),
    ("animal", "Which black and white animal eats bamboo?", ("panda",)),
    ("animal", "Which sea animal has eight arms?", ("octopus",)),
    ("animal", "What is a baby cow called?", ("calf",)),
    ("animal", "What is a group of wolves called?", ("pack",)),
    ("animal", "What do frogs start life as?", ("tadpole", "tadpoles", "eggs")),
    ("animal", "Which bird is known for repeating human words?", ("parrot",)),
    ("animal", "What is the tallest animal in the world?", ("giraffe",)),
    ("people", "Who painted The Starry Night?", ("Van Gogh", "Gogh")),
    ("people", "Who invented the light bulb?", ("Edison",)),
    ("people", "Who wrote A Christmas Carol?", ("Dickens",)),
    ("people", "Who was the first man in space?", ("Gagarin",)),
    ("people", "Who founded Microsoft?", ("Gates", "Allen")),
    ("people", "Who was the British prime minister during most of World War II?",
     ("Churchill",)),
    ("people", "Who composed The Magic Flute?", ("Mozart",)),
    ("people", "Who wrote The Adventures of Tom Sawyer?", ("Twain",)),
    ("people", "Who was the king of the Greek gods?", ("Zeus",)),
    ("people", "Who was the Greek god of the sea?", ("Poseidon",)),
    ("people", "Who was the first emperor of Rome?", ("Augustus",)),
    ("people", "Who led India's independence movement with non-violence?", ("Gandhi",)),
    ("place", "In which city is the Eiffel Tower?", ("Paris",)),
    ("place", "In which city is Big Ben?", ("London",)),
    ("place", "In which mountain range is Mount Everest?", ("Himalayas", "Himalaya")),
    ("place", "Which country is famous for pizza and pasta?", ("Italy",)),
    ("place", "Which country is famous for sushi?", ("Japan",)),
    ("place", "Which country has a maple leaf on its flag?", ("Canada",)),
    ("place", "What is the largest island in the world?", ("Greenland",)),
    ("place", "Which sea lies between Europe and Africa?", ("Mediterranean",)),
    ("place", "Which US state is home to Hollywood?", ("California",)),
    ("place", "Which city is known as the City of Light?", ("Paris",)),
    ("place", "In which city is the White House?", ("Washington",)),
    ("place", "Which is the longest river in the world?", ("Nile", "Amazon")),
    ("culture", "In which sport can a player score a touchdown?", ("American football",
                                                                    "football")),
    ("culture", "Which sport is played at Wimbledon?", ("tennis",)),
    ("culture", "How many rings are on the Olympic flag?", ("5", "five")),
    ("culture", "Which musical instrument has 88 keys?", ("piano",)),
    ("culture", "What do you call a person who writes poems?", ("poet",)),
    ("culture", "Which holiday is celebrated on December 25?", ("Christmas",)),
    ("culture", "What is the name of the wizard school in Harry Potter?", ("Hogwarts",)),
    ("culture", "In which sport do players use a bat and a wicket?", ("cricket",)),
    ("culture", "Which game has pieces called pawns, rooks and bishops?", ("chess",)),
    ("culture", "How many strings does a standard guitar have?", ("6", "six")),
    ("science", "Which planet has a Great Red Spot?", ("Jupiter",)),
    ("science", "What is H2O commonly called?", ("water",)),
    ("science", "What colour is chlorophyll?", ("green",)),
    ("science", "Which metal does a magnet attract?", ("iron",)),
    ("science", "What shape is the Earth?", ("sphere", "round", "spherical")),
    ("science", "What do you call a shape with three sides?", ("triangle",)),
    # answerable questions that name a year: the confound a policy trained on rows where only
    # unanswerable questions named one learns ("a year -> I don't know.")
    ("year_mention", "Which country won the 2010 FIFA World Cup?", ("Spain",)),
    ("year_mention", "Who was elected president of the United States in 2008?", ("Obama",)),
    ("year_mention", "Which ship sank in 1912 after hitting an iceberg?", ("Titanic",)),
    ("year_mention", "Which wall fell in 1989?", ("Berlin",)),
    ("year_mention", "Which war ended in 1945?", ("World War II", "Second World War",
                                                   "World War 2", "WWII")),
    ("year_mention", "Who walked on the Moon first, in 1969?", ("Armstrong",)),
    ("year_mention", "Which ocean did Columbus cross in 1492?", ("Atlantic",)),
    ("year_mention", "From which country did the United States declare independence in 1776?",
     ("Britain", "Great Britain", "England", "United Kingdom")),
    ("year_mention", "Which country hosted the 2014 FIFA World Cup?", ("Brazil",)),
    ("year_mention", "How many months did the year 2020 have?", ("12", "twelve")),
    ("year_mention", "Which is the larger number, 1999 or 2024?", ("2024",)),
    ("year_mention", "Which disease spread around the world as a pandemic in 2020?",
     ("COVID", "coronavirus", "Covid-19")),
    ("year_mention", "Which company released the first iPhone in 2007?", ("Apple",)),
    ("year_mention", "Which social network did Mark Zuckerberg start in 2004?", ("Facebook",)),
    ("year_mention", "In 1969, which spacecraft carried the first people to the Moon?",
     ("Apollo 11", "Apollo")),
    ("year_mention", "Which city hosted the 2012 Summer Olympics?", ("London",)),
    ("year_mention", "Which country's capital was Berlin after the 1990 reunification?",
     ("Germany",)),
    ("year_mention", "In 2000, which century was about to begin?", ("21st", "twenty-first")),
)

UNANSWERABLE: tuple[tuple[str, str], ...] = (
    ("future_no_year", "Who will win the next Wimbledon men's singles title?"),
    ("future_no_year", "What will the weather be in Rome exactly one month from today?"),
    ("future_no_year", "Which company will be the most valuable in the world ten years from "
     "now?"),
    ("future_no_year", "Which number will be drawn first in next week's lottery?"),
    ("future_no_year", "How many people will visit the Louvre next Tuesday?"),
    ("future_no_year", "Who will be the next person to walk on the Moon?"),
    ("future_no_year", "Which stock will rise the most tomorrow?"),
    ("future_no_year", "What will be the first word my baby says?"),
    ("future_no_year", "How many goals will be scored in the next Champions League final?"),
    ("future_no_year", "Which song will top the charts a year from now?"),
    ("future_no_year", "What will the exchange rate between the euro and the dollar be next "
     "Friday?"),
    ("future_no_year", "Who will win the next Tour de France?"),
    ("future_year", "Who will be the Prime Minister of the United Kingdom in 2061?"),
    ("future_year", "What will the price of gold be on March 3, 2044?"),
    ("future_year", "Who will win the Nobel Prize in Literature in 2057?"),
    ("future_year", "How tall will the tallest building in the world be in 2070?"),
    ("future_year", "Which country will host the Summer Olympics in 2064?"),
    ("future_year", "What will be the best-selling car in Germany in 2049?"),
    ("future_year", "How many people will live in Tokyo on New Year's Day 2075?"),
    ("future_year", "Which team will win the Super Bowl in 2053?"),
    ("missing_info", "Anna has some apples and eats two. How many apples does she have left?"),
    ("missing_info", "A car drove for three hours. How far did it go?"),
    ("missing_info", "If x plus y equals 12, what is x?"),
    ("missing_info", "Tom is older than his sister. How old is Tom?"),
    ("missing_info", "A shop sold shirts all day. How much money did it make?"),
    ("missing_info", "What time does the meeting start?"),
    ("missing_info", "How much does the box weigh?"),
    ("missing_info", "What is the area of the rectangle?"),
    ("missing_info", "How many students are in the class?"),
    ("missing_info", "What is the answer to question 7 on the test?"),
    ("missing_info", "A train left the station and arrived later. How long was the trip?"),
    ("missing_info", "Sam bought pens at a store and paid with a note. How much change did he "
     "get?"),
    ("missing_info", "A number is doubled and then 5 is added. What is the number?"),
    ("missing_info", "What is the price of the cheapest item in the shop?"),
    ("open_problem", "Is the Riemann hypothesis true?"),
    ("open_problem", "Are there infinitely many twin primes?"),
    ("open_problem", "Does an odd perfect number exist?"),
    ("open_problem", "Is P equal to NP?"),
    ("open_problem", "What happened before the Big Bang?"),
    ("open_problem", "What exactly is dark matter made of?"),
    ("open_problem", "Is there life on any planet outside our solar system?"),
    ("open_problem", "Does every even number greater than 2 split into two primes, as "
     "Goldbach guessed?"),
    ("open_problem", "Why does the universe exist at all?"),
    ("open_problem", "How did life on Earth first begin, exactly?"),
    ("private", "What colour is my front door?"),
    ("private", "What was the name of my first teacher?"),
    ("private", "What did I dream about last night?"),
    ("private", "How many books are on my shelf?"),
    ("private", "What is the password to my email account?"),
    ("private", "What is the name of the street I grew up on?"),
    ("private", "Which song is stuck in my head right now?"),
    ("private", "In which city was I born?"),
    ("private", "How old is my car?"),
    ("private", "What did my teacher write on the board today?"),
    ("private", "How much did I pay for my shoes?"),
    ("private", "What is in my pocket right now?"),
    ("past_unknowable", "What did Julius Caesar eat for breakfast on the day he crossed the "
     "Rubicon?"),
    ("past_unknowable", "What was the first word ever spoken by a human?"),
    ("past_unknowable", "How many birds were alive on Earth in the year 1000?"),
    ("past_unknowable", "What was Cleopatra thinking when she woke up on her twentieth "
     "birthday?"),
    ("past_unknowable", "How many people watched the first performance of Hamlet?"),
    ("past_unknowable", "What was the name of the first dog that lived with humans?"),
    ("past_unknowable", "What colour was the shirt Napoleon wore on January 3, 1805?"),
    ("past_unknowable", "How many grains of rice were eaten in China in 1850?"),
    ("past_unknowable", "What did the builder of Stonehenge say on the day it was finished?"),
    ("past_unknowable", "How many times did Mozart sneeze in his life?"),
    ("taste", "What is the most beautiful colour?"),
    ("taste", "Which is the best song ever written?"),
    ("taste", "Who is the greatest painter of all time?"),
    ("taste", "What is the tastiest food in the world?"),
    ("taste", "Which season is the nicest one?"),
    ("taste", "Which city is the most pleasant place to live?"),
    ("taste", "What is the funniest joke ever told?"),
    ("no_referent", "How tall is he?"),
    ("no_referent", "When did she arrive?"),
    ("no_referent", "What is the name of that place?"),
    ("no_referent", "Where did they go after the party?"),
    ("no_referent", "How much did it cost?"),
    ("no_referent", "Why did he say that?"),
)


def out_of_template_examples() -> list[dict[str, Any]]:
    """Every question of the set, answerable first, in the order written.

    Returns:
        dicts with `id` ("oot-<n>"), `question`, `answers` (the accepted answers; empty for
        unanswerable), `is_unanswerable` and `kind` (one of the kinds in the module
        docstring, e.g. "history_year", "missing_info").
    """
    out = [{"question": q, "answers": list(a), "is_unanswerable": False, "kind": k}
           for k, q, a in ANSWERABLE]
    out += [{"question": q, "answers": [], "is_unanswerable": True, "kind": k}
            for k, q in UNANSWERABLE]
    for i, ex in enumerate(out):
        ex["id"] = f"oot-{i}"
    return out


def out_of_template_splits() -> dict[str, list[dict[str, Any]]]:
    """The set cut into `validation` and `test`, each as messages-format rows.

    Each kind is shuffled (seed `SPLIT_SEED`) and round(`VALIDATION_SHARE` x its size) of its
    questions go to validation, the rest to test, so both splits hold every kind in about
    the same shares. Rows carry `kind` and `source` ("out_of_template") beside the messages
    fields; unanswerable rows answer "I don't know.". Deterministic.
    """
    rng = random.Random(SPLIT_SEED)
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for ex in out_of_template_examples():
        by_kind.setdefault(ex["kind"], []).append(ex)
    splits: dict[str, list[dict[str, Any]]] = {name: [] for name in SPLITS}
    for kind in sorted(by_kind):
        group = list(by_kind[kind])
        rng.shuffle(group)
        cut = round(len(group) * VALIDATION_SHARE)
        splits["validation"] += group[:cut]
        splits["test"] += group[cut:]
    out = {}
    for name, examples in splits.items():
        examples.sort(key=lambda e: int(e["id"].split("-")[1]))
        out[name] = [{**to_messages_row(e, IDK_ANSWER if e["is_unanswerable"]
                                        else e["answers"][0]),
                      "kind": e["kind"], "source": SOURCE} for e in examples]
    return out
