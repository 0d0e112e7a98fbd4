"""Prose for the severed-font benchmark: a heading and two paragraphs per language.

Written for this benchmark (not the generators' default texts, which the
tests use), in the everyday register of a municipal notice, with each
language's accented letters, capitals, digits and punctuation. An ``*``
pair marks a phrase printed in italics, so a page draws two subsets of one
family.
"""

from __future__ import annotations

#: language -> (heading, first paragraph, second paragraph)
TEXTS: dict[str, tuple[str, str, str]] = {
    "en": (
        "Notice to Residents of the Northern District",
        "From 3 March the public library on Quarry Road will close for six weeks while the roof "
        "is replaced and the reading room is rewired. Books already borrowed may be returned to "
        "the mobile van, which parks beside the swimming pool every Tuesday and Friday.",
        "The council apologises for the inconvenience. *Questions about fines or reservations* "
        "can be sent by email; a volunteer answers them each weekday morning, and the whole "
        "collection will be back on the shelves by the middle of April.",
    ),
    "fr": (
        "Avis aux habitants du quartier nord",
        "À partir du 3 mars, la bibliothèque municipale de la rue des Carrières fermera six "
        "semaines : la toiture sera refaite et l'électricité de la salle de lecture remise à "
        "neuf. Les livres déjà empruntés pourront être rendus au bibliobus, garé près de la "
        "piscine chaque mardi et vendredi.",
        "La mairie s'excuse de la gêne occasionnée. *Les questions sur les pénalités ou les "
        "réservations* peuvent être envoyées par courriel ; un bénévole y répond chaque matin, "
        "et toute la collection retrouvera ses rayons à la mi-avril, après un contrôle général.",
    ),
    "de": (
        "Mitteilung an die Bewohner des Nordviertels",
        "Ab dem 3. März bleibt die Stadtbücherei in der Steinbruchstraße sechs Wochen "
        "geschlossen, während das Dach erneuert und der Lesesaal neu verkabelt wird. Bereits "
        "ausgeliehene Bücher können im Bücherbus zurückgegeben werden, der jeden Dienstag und "
        "Freitag neben dem Hallenbad hält.",
        "Die Gemeinde bittet um Verständnis. *Fragen zu Gebühren oder Vormerkungen* lassen sich "
        "per E-Mail stellen; eine Ehrenamtliche beantwortet sie werktags vormittags, und Mitte "
        "April stehen sämtliche Bände wieder in den Regalen, größere Änderungen ausgenommen.",
    ),
    "es": (
        "Aviso a los vecinos del distrito norte",
        "A partir del 3 de marzo, la biblioteca municipal de la calle Cantera cerrará seis "
        "semanas mientras se cambia el tejado y se renueva la instalación eléctrica de la sala "
        "de lectura. Los libros prestados podrán devolverse en el bibliobús, que se detiene "
        "junto a la piscina cada martes y viernes.",
        "El ayuntamiento lamenta las molestias. *Las preguntas sobre multas o reservas* pueden "
        "enviarse por correo electrónico; un voluntario las contesta cada mañana, y toda la "
        "colección volverá a sus estantes a mediados de abril. ¿Dudas? Llame al número habitual.",
    ),
    "it": (
        "Avviso ai residenti del quartiere nord",
        "Dal 3 marzo la biblioteca comunale di via delle Cave resterà chiusa per sei settimane, "
        "mentre si rifà il tetto e si rinnova l'impianto elettrico della sala di lettura. I "
        "libri già presi in prestito si potranno restituire al bibliobus, che sosta accanto "
        "alla piscina ogni martedì e venerdì.",
        "Il Comune si scusa per il disagio. *Le domande su multe o prenotazioni* possono essere "
        "inviate per posta elettronica; un volontario risponde ogni mattina, e l'intera raccolta "
        "tornerà sugli scaffali a metà aprile, dopo una verifica già prevista da tempo.",
    ),
    "pt": (
        "Aviso aos moradores do bairro norte",
        "A partir de 3 de março, a biblioteca municipal da rua da Pedreira ficará fechada "
        "durante seis semanas, enquanto o telhado é substituído e a instalação elétrica da sala "
        "de leitura é renovada. Os livros já emprestados poderão ser devolvidos na carrinha, "
        "que estaciona junto à piscina às terças e sextas.",
        "A câmara pede desculpa pelo incómodo. *As questões sobre multas ou reservas* podem ser "
        "enviadas por correio eletrónico; um voluntário responde todas as manhãs, e a coleção "
        "inteira voltará às estantes em meados de abril, após a inspeção habitual.",
    ),
    "nl": (
        "Bericht aan de bewoners van de noordwijk",
        "Vanaf 3 maart is de openbare bibliotheek aan de Groeveweg zes weken gesloten, omdat het "
        "dak wordt vervangen en de leeszaal nieuwe bedrading krijgt. Geleende boeken kunnen "
        "worden ingeleverd bij de bibliotheekbus, die elke dinsdag en vrijdag naast het "
        "zwembad staat.",
        "De gemeente excuseert zich voor het ongemak. *Vragen over boetes of reserveringen* "
        "kunnen per e-mail worden gesteld; een vrijwilliger beantwoordt ze elke ochtend, en "
        "half april staat de hele collectie weer in de kasten, op een enkele uitzondering na.",
    ),
    "pl": (
        "Komunikat dla mieszkańców dzielnicy północnej",
        "Od 3 marca biblioteka miejska przy ulicy Kamieniołomowej będzie zamknięta przez sześć "
        "tygodni, ponieważ wymieniany jest dach, a w czytelni powstaje nowa instalacja "
        "elektryczna. Wypożyczone książki można oddać w bibliobusie, który w każdy wtorek i "
        "piątek stoi obok krytej pływalni.",
        "Urząd przeprasza za utrudnienia. *Pytania dotyczące kar lub rezerwacji* można wysyłać "
        "pocztą elektroniczną; wolontariuszka odpowiada na nie każdego ranka, a cały "
        "księgozbiór wróci na półki w połowie kwietnia, źródłowe zbiory również.",
    ),
    "cs": (
        "Oznámení obyvatelům severní čtvrti",
        "Od 3. března bude městská knihovna v Lomové ulici šest týdnů zavřená, protože se mění "
        "střecha a čítárna dostává novou elektroinstalaci. Vypůjčené knihy lze vrátit do "
        "bibliobusu, který každé úterý a pátek parkuje vedle krytého bazénu.",
        "Městský úřad se omlouvá za potíže. *Dotazy k pokutám či rezervacím* můžete posílat "
        "e-mailem; dobrovolnice na ně odpovídá každé ráno a celý fond se vrátí do regálů "
        "v polovině dubna, až skončí kontrola. Děkujeme za trpělivost a ochotu.",
    ),
    "ru": (
        "Объявление для жителей северного района",
        "С 3 марта городская библиотека на Карьерной улице закрывается на шесть недель: "
        "меняют крышу и проводят новую электропроводку в читальном зале. Взятые книги можно "
        "вернуть в библиобус, который по вторникам и пятницам стоит у крытого бассейна.",
        "Администрация приносит извинения за неудобства. *Вопросы о штрафах и бронировании* "
        "можно присылать по электронной почте; волонтёр отвечает на них каждое утро, а весь "
        "фонд вернётся на полки к середине апреля, после обычной проверки.",
    ),
    "el": (
        "Ανακοίνωση προς τους κατοίκους της βόρειας συνοικίας",
        "Από τις 3 Μαρτίου η δημοτική βιβλιοθήκη της οδού Λατομείων θα μείνει κλειστή για έξι "
        "εβδομάδες, όσο αντικαθίσταται η στέγη και ανανεώνεται η ηλεκτρική εγκατάσταση του "
        "αναγνωστηρίου. Τα δανεισμένα βιβλία επιστρέφονται στο κινητό λεωφορείο, που σταθμεύει "
        "δίπλα στο κολυμβητήριο κάθε Τρίτη και Παρασκευή.",
        "Ο δήμος ζητά συγγνώμη για την ταλαιπωρία. *Ερωτήσεις για πρόστιμα ή κρατήσεις* "
        "στέλνονται με ηλεκτρονικό ταχυδρομείο· ένας εθελοντής απαντά κάθε πρωί, και όλη η "
        "συλλογή θα επιστρέψει στα ράφια στα μέσα Απριλίου, ύστερα από τον συνήθη έλεγχο.",
    ),
    "he": (
        "הודעה לתושבי הרובע הצפוני",
        "החל מה-3 במרץ הספרייה העירונית ברחוב המחצבה תיסגר לשישה שבועות, בזמן החלפת הגג "
        "וחידוש החשמל באולם הקריאה. ספרים שהושאלו אפשר להחזיר לספרייה הניידת, שחונה ליד "
        "הבריכה המקורה בכל יום שלישי ושישי.",
        "העירייה מתנצלת על אי הנוחות. *שאלות על קנסות והזמנות* אפשר לשלוח בדואר אלקטרוני; "
        "מתנדב עונה עליהן בכל בוקר, וכל האוסף יחזור למדפים באמצע אפריל, אחרי הבדיקה הרגילה.",
    ),
    "ar": (
        "إعلان لسكان الحي الشمالي",
        "اعتبارا من الثالث من مارس ستغلق المكتبة البلدية في شارع المحاجر لمدة ستة أسابيع، "
        "أثناء استبدال السقف وتجديد الكهرباء في قاعة المطالعة. يمكن إعادة الكتب المستعارة إلى "
        "المكتبة المتنقلة التي تقف بجانب المسبح المغطى كل ثلاثاء وجمعة.",
        "تعتذر البلدية عن الإزعاج. *ترسل الأسئلة عن الغرامات والحجوزات* بالبريد الإلكتروني؛ "
        "يجيب متطوع عنها كل صباح، وستعود المجموعة كلها إلى الرفوف في منتصف أبريل بعد الفحص "
        "المعتاد.",
    ),
    "vi": (
        "Thông báo gửi cư dân khu phía bắc",
        "Từ ngày 3 tháng 3, thư viện thành phố trên đường Mỏ Đá sẽ đóng cửa sáu tuần để thay "
        "mái nhà và làm lại hệ thống điện của phòng đọc. Sách đã mượn có thể trả cho xe thư "
        "viện lưu động, đỗ cạnh bể bơi có mái che vào mỗi thứ Ba và thứ Sáu.",
        "Thành phố xin lỗi vì sự bất tiện này. *Câu hỏi về tiền phạt hoặc đặt trước* có thể gửi "
        "qua thư điện tử; một tình nguyện viên trả lời mỗi buổi sáng, và toàn bộ sách sẽ trở "
        "lại kệ vào giữa tháng Tư, sau đợt kiểm tra thường lệ.",
    ),
    "tr": (
        "Kuzey mahallesi sakinlerine duyuru",
        "3 Mart'tan itibaren Taşocağı Caddesi'ndeki belediye kütüphanesi, çatı yenilenirken ve "
        "okuma salonunun elektrik tesisatı değiştirilirken altı hafta kapalı kalacak. Ödünç "
        "alınan kitaplar, her salı ve cuma kapalı yüzme havuzunun yanında duran gezici "
        "kütüphaneye iade edilebilir.",
        "Belediye verdiği rahatsızlıktan dolayı özür diler. *Gecikme cezaları ve ayırtmalarla "
        "ilgili sorular* e-postayla gönderilebilir; bir gönüllü her sabah yanıtlıyor ve bütün "
        "koleksiyon olağan denetimden sonra nisan ortasında raflara dönecek.",
    ),
    "hu": (
        "Közlemény az északi kerület lakóinak",
        "Március 3-tól a Kőfejtő utcai városi könyvtár hat hétre bezár, amíg kicserélik a "
        "tetőt és felújítják az olvasóterem villanyhálózatát. A kölcsönzött könyveket a "
        "mozgókönyvtárba lehet visszavinni, amely minden kedden és pénteken a fedett uszoda "
        "mellett áll.",
        "Az önkormányzat elnézést kér a kellemetlenségért. *A késedelmi díjakkal és "
        "foglalásokkal kapcsolatos kérdések* e-mailben küldhetők; egy önkéntes minden reggel "
        "válaszol, és az egész állomány április közepére, a szokásos ellenőrzés után "
        "visszakerül a polcokra.",
    ),
}

#: Languages written right to left: their pages are set ``dir="rtl"``.
RIGHT_TO_LEFT = frozenset({"he", "ar"})
#: Languages that run only when named (``--languages``), apart from the default run and its
#: totals: the right-to-left ones (the issue's stretch), and Vietnamese, Turkish and
#: Hungarian (Latin scripts with letters the default eight do not have).
NAMED_ONLY = RIGHT_TO_LEFT | {"vi", "tr", "hu"}
