/**
 * A small translation dictionary (English, French, German) and the language selector.
 *
 * Static page text carries `data-i18n="key"` (textContent) or
 * `data-i18n-placeholder`, `data-i18n-title`, `data-i18n-aria-label` (attributes); the
 * page modules call `t()` for text they build. The chosen language is kept in
 * localStorage; by default it follows `navigator.language`.
 */

export const LANGUAGES = { en: "English", fr: "Français", de: "Deutsch" };
const STORAGE_KEY = "labyrinth:lang";

const en = {
  "app.title": "Labyrinth",
  "nav.lobby": "Lobby",
  "nav.rules": "Rules",
  "nav.skip": "Skip to content",
  "lang.label": "Language",
  "footer.text": "The moving maze, online. Play with friends, watch live games.",

  "variant.classic": "Labyrinth (classic)",
  "variant.unknown": "Variant {id}",
  "option.events": "Event variant",
  "option.events.help": "12 tiles hide an event, revealed when a push ejects them.",
  "option.return_home": "Return home to win",
  "option.return_home.help": "Off: the younger-children variant — the first to find all their treasures wins.",

  "lobby.intro": "Shift the maze, hunt for treasures, and be the first back home. Create a room and send its link to your friends.",
  "lobby.new_game": "New game",
  "lobby.variant": "Game",
  "lobby.options": "Options",
  "lobby.create": "Create a room",
  "lobby.creating": "Creating…",
  "lobby.live": "Live games",
  "lobby.finished": "Recently finished",
  "lobby.none_live": "No game is being played right now.",
  "lobby.none_finished": "No finished game yet.",
  "lobby.loading": "Loading…",
  "lobby.load_error": "Could not load the list.",
  "lobby.watch": "Watch",
  "lobby.view": "View",
  "lobby.moves": "{n} moves",
  "lobby.moves.one": "1 move",
  "lobby.started": "started {date}",
  "lobby.ended": "ended {date}",
  "lobby.winner": "Winner: {names}",
  "lobby.no_winner": "No winner",
  "lobby.rules_link": "Read the rules of the classic game",

  "room.title": "Room {code}",
  "room.seats": "Seats",
  "room.free_seat": "free seat",
  "room.your_name": "Your name",
  "room.take_seat": "Take a seat",
  "room.start": "Start the game",
  "room.share": "Invite with this link",
  "room.copy": "Copy",
  "room.copied": "Copied!",
  "room.spectators": "{n} watching",
  "room.spectators.one": "1 watching",
  "room.you": "you",
  "room.connected": "connected",
  "room.disconnected": "not connected",
  "room.conn.connecting": "Connecting…",
  "room.conn.online": "Connected",
  "room.conn.offline": "Connection lost — retrying…",
  "room.conn.gone": "This room does not exist.",
  "room.lobby_help": "The game has not started yet. Take a seat to play, or just watch.",
  "room.seated_help": "You are seated. Any seated player can start once {min} players are here.",
  "room.need_players": "At least {min} players are needed to start.",
  "room.full": "All seats are taken; you can watch the game.",
  "room.waiting_state": "Waiting for the game…",
  "room.bot": "bot",
  "room.spectator_name": "spectator",

  "game.move_no": "Move {n}",
  "game.board": "The maze",
  "game.turn.your_push": "Your turn: insert the spare tile — choose an arrow.",
  "game.turn.your_move": "Your turn: move your pawn — choose a lit cell, or Stay.",
  "game.turn.other_push": "{name} is inserting the spare tile.",
  "game.turn.other_move": "{name} is moving.",
  "game.target": "Your target",
  "game.target.home": "All found — go back home!",
  "game.target.spectator": "You are watching: targets stay secret.",
  "game.spare": "Spare tile",
  "game.rotate_cw": "Rotate clockwise (R)",
  "game.rotate_ccw": "Rotate counter-clockwise (Shift+R)",
  "game.stay": "Stay",
  "game.stay_help": "End the move on your own cell",
  "game.players": "Players",
  "game.found_count": "{found} found, {n} left",
  "game.log": "Moves",
  "game.log_empty": "No move yet.",
  "game.chat": "Chat",
  "game.chat_placeholder": "Say something…",
  "game.send": "Send",
  "game.chat_empty": "No message yet.",
  "game.over": "Game over",
  "game.winner": "{names} won",
  "game.reason.home": "back home with every treasure found.",
  "game.reason.all_found": "found all their treasures.",
  "game.bonus": "Bonus turn (double turn)",
  "game.arrow": "Insert the spare at {slot}",
  "game.arrow_forbidden": "{slot}: not allowed, it would undo the last push",
  "game.move_to": "Move to {cell}",
  "game.pawn": "{name}'s pawn on {cell}",
  "game.swap_with": "Swap with {name}",
  "game.swap_help": "Choose a pawn to swap places with (on the board or here).",
  "game.pick_help.peek": "Your next two cards — choose the one to pursue first:",
  "game.pick_help.exchange": "Your pile — choose the card to put on top (the rest is reshuffled):",
  "game.unsupported": "This game variant cannot be shown by this page yet.",
  "game.you": "(you)",

  "news.found": "{name} found the {treasure}!",
  "news.swapped": "{name} swapped places with {other}.",

  "event.title": "Event this turn",
  "event.used": "used",
  "event.unused": "available",
  "event.revealed": "Revealed event: {name}",
  "event.extra_push": "Extra push",
  "event.extra_push.desc": "Push once more before moving (the arrows are active again).",
  "event.double_turn": "Double turn",
  "event.double_turn.desc": "After this move, play one more full turn (applied automatically).",
  "event.swap": "Swap",
  "event.swap.desc": "Before moving, swap places with any other pawn, then move from there.",
  "event.peek": "Peek",
  "event.peek.desc": "See your next card and choose which of the top two to pursue first.",
  "event.exchange": "Exchange",
  "event.exchange.desc": "Put any card of your pile on top; the rest is reshuffled.",
  "event.wall": "Through a wall",
  "event.wall.desc": "During this move you may cross one wall, once.",

  "error.generic": "Refused",
  "error.network": "Network error",
  "error.not_your_turn": "It is not your turn.",
  "error.illegal": "Not allowed",
  "error.stale": "The board changed meanwhile; try again.",
  "error.rate_limited": "Slow down a little.",
  "error.spectator": "Spectators cannot play.",
  "error.finished": "The game is over.",
  "error.unauthorized": "Your seat key is not valid here; you are watching.",
  "error.bad_name": "Names are 1 to 32 characters.",
  "error.not_found": "This room does not exist.",
  "error.bad_message": "The server did not understand that",
  "error.room_full": "All seats are taken.",
  "error.already_started": "The game has already started.",
  "error.too_few_players": "Not enough players yet.",

  "treasure.book": "book",
  "treasure.gold": "bag of gold",
  "treasure.map": "treasure map",
  "treasure.skull": "skull",
  "treasure.ring": "ring",
  "treasure.sword": "sword",
  "treasure.crown": "crown",
  "treasure.keys": "keys",
  "treasure.chest": "treasure chest",
  "treasure.emerald": "emerald",
  "treasure.candlestick": "candlestick",
  "treasure.helmet": "helmet",
  "treasure.bat": "bat",
  "treasure.dragon": "dragon",
  "treasure.genie": "genie",
  "treasure.ghost": "ghost",
  "treasure.troll": "troll",
  "treasure.sorceress": "sorceress",
  "treasure.lizard": "lizard",
  "treasure.moth": "moth",
  "treasure.owl": "owl",
  "treasure.scarab": "scarab",
  "treasure.rat": "rat",
  "treasure.spider": "spider",

  "rules.treasures": "The 24 treasures",
  "rules.objects": "12 objects, on the fixed tiles",
  "rules.creatures": "12 creatures, on loose tiles",
  "notfound.title": "Nothing here",
  "notfound.text": "This room or page does not exist (or no longer does).",
  "notfound.back": "Back to the lobby",
};

const fr = {
  "app.title": "Labyrinthe",
  "nav.lobby": "Accueil",
  "nav.rules": "Règles",
  "nav.skip": "Aller au contenu",
  "lang.label": "Langue",
  "footer.text": "Le labyrinthe mouvant, en ligne. Jouez entre amis, regardez les parties en direct.",

  "variant.classic": "Labyrinthe (classique)",
  "variant.unknown": "Variante {id}",
  "option.events": "Variante avec événements",
  "option.events.help": "12 plaques cachent un événement, révélé quand une poussée les expulse.",
  "option.return_home": "Retour au départ pour gagner",
  "option.return_home.help": "Désactivé : variante pour les plus jeunes — le premier à trouver tous ses objectifs gagne.",

  "lobby.intro": "Faites coulisser les couloirs, partez à la chasse aux trésors et revenez le premier à votre point de départ. Créez une salle et envoyez son lien à vos amis.",
  "lobby.new_game": "Nouvelle partie",
  "lobby.variant": "Jeu",
  "lobby.options": "Options",
  "lobby.create": "Créer une salle",
  "lobby.creating": "Création…",
  "lobby.live": "Parties en cours",
  "lobby.finished": "Parties terminées récemment",
  "lobby.none_live": "Aucune partie en cours pour le moment.",
  "lobby.none_finished": "Aucune partie terminée.",
  "lobby.loading": "Chargement…",
  "lobby.load_error": "Impossible de charger la liste.",
  "lobby.watch": "Regarder",
  "lobby.view": "Voir",
  "lobby.moves": "{n} coups",
  "lobby.moves.one": "1 coup",
  "lobby.started": "commencée {date}",
  "lobby.ended": "terminée {date}",
  "lobby.winner": "Gagnant : {names}",
  "lobby.no_winner": "Pas de gagnant",
  "lobby.rules_link": "Lire les règles du jeu classique",

  "room.title": "Salle {code}",
  "room.seats": "Places",
  "room.free_seat": "place libre",
  "room.your_name": "Votre nom",
  "room.take_seat": "Prendre place",
  "room.start": "Lancer la partie",
  "room.share": "Invitez avec ce lien",
  "room.copy": "Copier",
  "room.copied": "Copié !",
  "room.spectators": "{n} spectateurs",
  "room.spectators.one": "1 spectateur",
  "room.you": "vous",
  "room.connected": "connecté",
  "room.disconnected": "déconnecté",
  "room.conn.connecting": "Connexion…",
  "room.conn.online": "Connecté",
  "room.conn.offline": "Connexion perdue — nouvelle tentative…",
  "room.conn.gone": "Cette salle n’existe pas.",
  "room.lobby_help": "La partie n’a pas commencé. Prenez place pour jouer, ou regardez simplement.",
  "room.seated_help": "Vous avez une place. N’importe quel joueur assis peut lancer la partie dès que {min} joueurs sont là.",
  "room.need_players": "Il faut au moins {min} joueurs pour commencer.",
  "room.full": "Toutes les places sont prises ; vous pouvez regarder la partie.",
  "room.waiting_state": "En attente de la partie…",
  "room.bot": "robot",
  "room.spectator_name": "spectateur",

  "game.move_no": "Coup {n}",
  "game.board": "Le labyrinthe",
  "game.turn.your_push": "À vous : introduisez la plaque supplémentaire — choisissez une flèche.",
  "game.turn.your_move": "À vous : déplacez votre pion — choisissez une case éclairée, ou Rester.",
  "game.turn.other_push": "{name} introduit la plaque supplémentaire.",
  "game.turn.other_move": "{name} déplace son pion.",
  "game.target": "Votre objectif",
  "game.target.home": "Tout est trouvé — retournez à votre départ !",
  "game.target.spectator": "Vous regardez : les objectifs restent secrets.",
  "game.spare": "Plaque supplémentaire",
  "game.rotate_cw": "Tourner dans le sens horaire (R)",
  "game.rotate_ccw": "Tourner dans le sens antihoraire (Maj+R)",
  "game.stay": "Rester",
  "game.stay_help": "Terminer le déplacement sur votre case",
  "game.players": "Joueurs",
  "game.found_count": "trouvés : {found} · restants : {n}",
  "game.log": "Coups",
  "game.log_empty": "Aucun coup pour l’instant.",
  "game.chat": "Discussion",
  "game.chat_placeholder": "Écrivez quelque chose…",
  "game.send": "Envoyer",
  "game.chat_empty": "Aucun message.",
  "game.over": "Partie terminée",
  "game.winner": "{names} a gagné",
  "game.reason.home": "de retour au départ avec tous ses objectifs.",
  "game.reason.all_found": "a trouvé tous ses objectifs.",
  "game.bonus": "Tour supplémentaire (double tour)",
  "game.arrow": "Introduire la plaque en {slot}",
  "game.arrow_forbidden": "{slot} : interdit, cela annulerait la dernière poussée",
  "game.move_to": "Aller en {cell}",
  "game.pawn": "Pion de {name} en {cell}",
  "game.swap_with": "Échanger avec {name}",
  "game.swap_help": "Choisissez un pion avec lequel échanger de place (sur le plateau ou ici).",
  "game.pick_help.peek": "Vos deux prochaines cartes — choisissez celle à poursuivre d’abord :",
  "game.pick_help.exchange": "Votre pile — choisissez la carte à mettre dessus (le reste est remélangé) :",
  "game.unsupported": "Cette page ne sait pas encore afficher cette variante.",
  "game.you": "(vous)",

  "news.found": "{name} a trouvé : {treasure} !",
  "news.swapped": "{name} a changé de place avec {other}.",

  "event.title": "Événement de ce tour",
  "event.used": "utilisé",
  "event.unused": "disponible",
  "event.revealed": "Événement révélé : {name}",
  "event.extra_push": "Poussée supplémentaire",
  "event.extra_push.desc": "Introduisez une nouvelle plaque avant de vous déplacer (les flèches sont de nouveau actives).",
  "event.double_turn": "Double tour",
  "event.double_turn.desc": "Après ce déplacement, jouez un tour complet de plus (appliqué automatiquement).",
  "event.swap": "Échange de place",
  "event.swap.desc": "Avant de vous déplacer, changez de place avec un autre pion, puis partez de là.",
  "event.peek": "Coup d’œil",
  "event.peek.desc": "Regardez votre deuxième carte et choisissez l’objectif à poursuivre d’abord.",
  "event.exchange": "Échange de carte",
  "event.exchange.desc": "Mettez n’importe quelle carte de votre pile dessus ; le reste est remélangé.",
  "event.wall": "Passe-muraille",
  "event.wall.desc": "Pendant ce déplacement, vous pouvez traverser un mur, une fois.",

  "error.generic": "Refusé",
  "error.network": "Erreur réseau",
  "error.not_your_turn": "Ce n’est pas votre tour.",
  "error.illegal": "Interdit",
  "error.stale": "Le plateau a changé entre-temps ; réessayez.",
  "error.rate_limited": "Doucement, un peu moins vite.",
  "error.spectator": "Les spectateurs ne peuvent pas jouer.",
  "error.finished": "La partie est terminée.",
  "error.unauthorized": "Votre clé de place n’est pas valable ici ; vous regardez.",
  "error.bad_name": "Un nom fait de 1 à 32 caractères.",
  "error.not_found": "Cette salle n’existe pas.",
  "error.bad_message": "Le serveur n’a pas compris",
  "error.room_full": "Toutes les places sont prises.",
  "error.already_started": "La partie a déjà commencé.",
  "error.too_few_players": "Pas encore assez de joueurs.",

  "treasure.book": "livre",
  "treasure.gold": "bourse d’or",
  "treasure.map": "carte au trésor",
  "treasure.skull": "crâne",
  "treasure.ring": "bague",
  "treasure.sword": "épée",
  "treasure.crown": "couronne",
  "treasure.keys": "trousseau de clés",
  "treasure.chest": "coffre au trésor",
  "treasure.emerald": "émeraude",
  "treasure.candlestick": "chandelier",
  "treasure.helmet": "casque",
  "treasure.bat": "chauve-souris",
  "treasure.dragon": "dragon",
  "treasure.genie": "génie",
  "treasure.ghost": "fantôme",
  "treasure.troll": "troll",
  "treasure.sorceress": "sorcière",
  "treasure.lizard": "lézard",
  "treasure.moth": "papillon de nuit",
  "treasure.owl": "hibou",
  "treasure.scarab": "scarabée",
  "treasure.rat": "rat",
  "treasure.spider": "araignée",

  "rules.treasures": "Les 24 trésors",
  "rules.objects": "12 objets, sur les plaques fixes",
  "rules.creatures": "12 créatures, sur des plaques mobiles",
  "notfound.title": "Rien ici",
  "notfound.text": "Cette salle ou cette page n’existe pas (ou plus).",
  "notfound.back": "Retour à l’accueil",
};

const de = {
  "app.title": "Labyrinth",
  "nav.lobby": "Lobby",
  "nav.rules": "Regeln",
  "nav.skip": "Zum Inhalt",
  "lang.label": "Sprache",
  "footer.text": "Das verrückte Labyrinth, online. Mit Freunden spielen, laufenden Partien zuschauen.",

  "variant.classic": "Das verrückte Labyrinth (klassisch)",
  "variant.unknown": "Variante {id}",
  "option.events": "Ereignis-Variante",
  "option.events.help": "12 Gänge verbergen ein Ereignis, das aufgedeckt wird, wenn ein Schub sie hinausschiebt.",
  "option.return_home": "Zum Start zurück, um zu gewinnen",
  "option.return_home.help": "Aus: Variante für jüngere Kinder — wer zuerst alle Schätze gefunden hat, gewinnt.",

  "lobby.intro": "Verschiebe die Gänge, jage nach Schätzen und sei als Erste(r) wieder am Start. Lege einen Raum an und schicke den Link an deine Freunde.",
  "lobby.new_game": "Neues Spiel",
  "lobby.variant": "Spiel",
  "lobby.options": "Optionen",
  "lobby.create": "Raum anlegen",
  "lobby.creating": "Wird angelegt…",
  "lobby.live": "Laufende Partien",
  "lobby.finished": "Kürzlich beendet",
  "lobby.none_live": "Gerade läuft keine Partie.",
  "lobby.none_finished": "Noch keine beendete Partie.",
  "lobby.loading": "Wird geladen…",
  "lobby.load_error": "Die Liste konnte nicht geladen werden.",
  "lobby.watch": "Zuschauen",
  "lobby.view": "Ansehen",
  "lobby.moves": "{n} Züge",
  "lobby.moves.one": "1 Zug",
  "lobby.started": "begonnen {date}",
  "lobby.ended": "beendet {date}",
  "lobby.winner": "Sieg: {names}",
  "lobby.no_winner": "Kein Sieger",
  "lobby.rules_link": "Die Regeln des klassischen Spiels lesen",

  "room.title": "Raum {code}",
  "room.seats": "Plätze",
  "room.free_seat": "freier Platz",
  "room.your_name": "Dein Name",
  "room.take_seat": "Platz nehmen",
  "room.start": "Spiel starten",
  "room.share": "Mit diesem Link einladen",
  "room.copy": "Kopieren",
  "room.copied": "Kopiert!",
  "room.spectators": "{n} schauen zu",
  "room.spectators.one": "1 schaut zu",
  "room.you": "du",
  "room.connected": "verbunden",
  "room.disconnected": "nicht verbunden",
  "room.conn.connecting": "Verbinde…",
  "room.conn.online": "Verbunden",
  "room.conn.offline": "Verbindung verloren — neuer Versuch…",
  "room.conn.gone": "Diesen Raum gibt es nicht.",
  "room.lobby_help": "Das Spiel hat noch nicht begonnen. Nimm Platz, um mitzuspielen, oder schau einfach zu.",
  "room.seated_help": "Du hast einen Platz. Jede(r) am Tisch kann starten, sobald {min} dabei sind.",
  "room.need_players": "Zum Starten braucht es mindestens {min} Spieler.",
  "room.full": "Alle Plätze sind besetzt; du kannst zuschauen.",
  "room.waiting_state": "Warte auf das Spiel…",
  "room.bot": "Bot",
  "room.spectator_name": "Zuschauer",

  "game.move_no": "Zug {n}",
  "game.board": "Das Labyrinth",
  "game.turn.your_push": "Du bist dran: schiebe die Extrakarte ein — wähle einen Pfeil.",
  "game.turn.your_move": "Du bist dran: ziehe deine Figur — wähle ein leuchtendes Feld oder Bleiben.",
  "game.turn.other_push": "{name} schiebt die Extrakarte ein.",
  "game.turn.other_move": "{name} zieht.",
  "game.target": "Dein Ziel",
  "game.target.home": "Alles gefunden — zurück zum Start!",
  "game.target.spectator": "Du schaust zu: die Ziele bleiben geheim.",
  "game.spare": "Extrakarte",
  "game.rotate_cw": "Im Uhrzeigersinn drehen (R)",
  "game.rotate_ccw": "Gegen den Uhrzeigersinn drehen (Umschalt+R)",
  "game.stay": "Bleiben",
  "game.stay_help": "Den Zug auf dem eigenen Feld beenden",
  "game.players": "Spieler",
  "game.found_count": "{found} gefunden, {n} übrig",
  "game.log": "Züge",
  "game.log_empty": "Noch kein Zug.",
  "game.chat": "Chat",
  "game.chat_placeholder": "Schreib etwas…",
  "game.send": "Senden",
  "game.chat_empty": "Noch keine Nachricht.",
  "game.over": "Spiel zu Ende",
  "game.winner": "{names} gewinnt",
  "game.reason.home": "mit allen Schätzen zurück am Start.",
  "game.reason.all_found": "hat alle Schätze gefunden.",
  "game.bonus": "Bonuszug (doppelter Zug)",
  "game.arrow": "Extrakarte bei {slot} einschieben",
  "game.arrow_forbidden": "{slot}: verboten, das würde den letzten Schub rückgängig machen",
  "game.move_to": "Nach {cell} ziehen",
  "game.pawn": "Figur von {name} auf {cell}",
  "game.swap_with": "Mit {name} tauschen",
  "game.swap_help": "Wähle eine Figur zum Platztausch (auf dem Brett oder hier).",
  "game.pick_help.peek": "Deine nächsten zwei Karten — wähle die, die du zuerst suchst:",
  "game.pick_help.exchange": "Dein Stapel — wähle die Karte, die nach oben kommt (der Rest wird gemischt):",
  "game.unsupported": "Diese Spielvariante kann diese Seite noch nicht anzeigen.",
  "game.you": "(du)",

  "news.found": "{name} hat gefunden: {treasure}!",
  "news.swapped": "{name} hat den Platz mit {other} getauscht.",

  "event.title": "Ereignis in diesem Zug",
  "event.used": "genutzt",
  "event.unused": "verfügbar",
  "event.revealed": "Ereignis aufgedeckt: {name}",
  "event.extra_push": "Noch ein Schub",
  "event.extra_push.desc": "Schiebe vor dem Ziehen noch einmal ein (die Pfeile sind wieder aktiv).",
  "event.double_turn": "Doppelter Zug",
  "event.double_turn.desc": "Nach diesem Zug spielst du noch einen ganzen Zug (automatisch).",
  "event.swap": "Platztausch",
  "event.swap.desc": "Tausche vor dem Ziehen den Platz mit einer anderen Figur und ziehe von dort.",
  "event.peek": "Blick in den Stapel",
  "event.peek.desc": "Sieh deine zweite Karte an und wähle, welche der beiden du zuerst suchst.",
  "event.exchange": "Kartentausch",
  "event.exchange.desc": "Lege eine beliebige Karte deines Stapels nach oben; der Rest wird gemischt.",
  "event.wall": "Durch die Wand",
  "event.wall.desc": "In diesem Zug darfst du einmal eine Wand durchqueren.",

  "error.generic": "Abgelehnt",
  "error.network": "Netzwerkfehler",
  "error.not_your_turn": "Du bist nicht dran.",
  "error.illegal": "Nicht erlaubt",
  "error.stale": "Das Brett hat sich inzwischen geändert; versuch es noch einmal.",
  "error.rate_limited": "Etwas langsamer, bitte.",
  "error.spectator": "Zuschauer können nicht spielen.",
  "error.finished": "Das Spiel ist zu Ende.",
  "error.unauthorized": "Dein Platzschlüssel gilt hier nicht; du schaust zu.",
  "error.bad_name": "Ein Name hat 1 bis 32 Zeichen.",
  "error.not_found": "Diesen Raum gibt es nicht.",
  "error.bad_message": "Der Server hat das nicht verstanden",
  "error.room_full": "Alle Plätze sind besetzt.",
  "error.already_started": "Das Spiel hat schon begonnen.",
  "error.too_few_players": "Noch nicht genug Spieler.",

  "treasure.book": "Buch",
  "treasure.gold": "Goldsack",
  "treasure.map": "Schatzkarte",
  "treasure.skull": "Totenkopf",
  "treasure.ring": "Ring",
  "treasure.sword": "Schwert",
  "treasure.crown": "Krone",
  "treasure.keys": "Schlüsselbund",
  "treasure.chest": "Schatztruhe",
  "treasure.emerald": "Smaragd",
  "treasure.candlestick": "Kerzenleuchter",
  "treasure.helmet": "Ritterhelm",
  "treasure.bat": "Fledermaus",
  "treasure.dragon": "Drache",
  "treasure.genie": "Flaschengeist",
  "treasure.ghost": "Geist",
  "treasure.troll": "Troll",
  "treasure.sorceress": "Zauberin",
  "treasure.lizard": "Eidechse",
  "treasure.moth": "Motte",
  "treasure.owl": "Eule",
  "treasure.scarab": "Käfer",
  "treasure.rat": "Ratte",
  "treasure.spider": "Spinne",

  "rules.treasures": "Die 24 Schätze",
  "rules.objects": "12 Gegenstände, auf den festen Gängen",
  "rules.creatures": "12 Wesen, auf losen Karten",
  "notfound.title": "Hier ist nichts",
  "notfound.text": "Diesen Raum oder diese Seite gibt es nicht (mehr).",
  "notfound.back": "Zurück zur Lobby",
};

const DICTS = { en, fr, de };
const listeners = new Set();

/** The language to use: stored choice, else the browser's, else English. */
function initialLanguage() {
  let stored = null;
  try {
    stored = localStorage.getItem(STORAGE_KEY);
  } catch {
    stored = null;
  }
  if (stored && DICTS[stored]) return stored;
  const prefs = navigator.languages && navigator.languages.length
    ? navigator.languages
    : [navigator.language || "en"];
  for (const tag of prefs) {
    const base = String(tag).slice(0, 2).toLowerCase();
    if (DICTS[base]) return base;
  }
  return "en";
}

let current = initialLanguage();

/** The current language code (`en`, `fr` or `de`). */
export function lang() {
  return current;
}

/**
 * Translate `key`, replacing `{name}` placeholders with `params[name]`.
 * With `params.n === 1` the entry `key + ".one"` is used where it exists.
 * Falls back to English, then to the key itself.
 * @param {string} key
 * @param {Record<string, string|number>} [params]
 */
export function t(key, params) {
  // A singular form, where the dictionary has one, for a count of exactly 1.
  const one = params && Number(params.n) === 1 ? key + ".one" : null;
  let text = (one && (DICTS[current][one] ?? en[one])) ?? DICTS[current][key] ?? en[key] ?? key;
  if (params) {
    text = text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
  }
  return text;
}

/** Apply translations to every `data-i18n*` element under `root`. */
export function applyTranslations(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    el.textContent = t(el.dataset.i18n);
  }
  for (const attr of ["placeholder", "title", "aria-label"]) {
    const data = "data-i18n-" + attr;
    for (const el of root.querySelectorAll(`[${data}]`)) {
      el.setAttribute(attr, t(el.getAttribute(data)));
    }
  }
  // Blocks written out once per language (the rules page): show the current one.
  const blocks = root.querySelectorAll("[data-lang-block]");
  if (blocks.length) {
    const want = root.querySelector(`[data-lang-block="${current}"]`) ? current : "en";
    for (const el of blocks) el.hidden = el.dataset.langBlock !== want;
  }
  document.documentElement.lang = current;
}

/** Change the language, remember it, and tell every listener. */
export function setLanguage(code) {
  if (!DICTS[code] || code === current) return;
  current = code;
  try {
    localStorage.setItem(STORAGE_KEY, code);
  } catch {
    /* private mode: the choice lasts for this page only */
  }
  applyTranslations();
  for (const fn of listeners) fn(code);
}

/** Call `fn(code)` after every language change. */
export function onLanguageChange(fn) {
  listeners.add(fn);
}

/** Wire the header's language selector and translate the page once. */
export function initI18n() {
  const select = document.getElementById("lang-select");
  if (select && !select.dataset.ready) {
    select.dataset.ready = "1";
    select.replaceChildren();
    for (const [code, label] of Object.entries(LANGUAGES)) {
      const opt = document.createElement("option");
      opt.value = code;
      opt.textContent = label;
      select.append(opt);
    }
    select.value = current;
    select.addEventListener("change", () => setLanguage(select.value));
  }
  applyTranslations();
}

/** Human notation of a cell: `[0, 0]` -> `a1`. */
export function cellName([row, col]) {
  return "abcdefg"[col] + String(row + 1);
}

/** Human notation of a slot: `N`,1 -> `Nb`; `W`,3 -> `W4`. */
export function slotName(side, index) {
  return side + (side === "N" || side === "S" ? "abcdefg"[index] : String(index + 1));
}

/** Localised date and time for an ISO string. */
export function formatDate(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return new Intl.DateTimeFormat(current, { dateStyle: "medium", timeStyle: "short" }).format(d);
}

/** Join names as a localised list ("Ann and Bob"). */
export function formatList(items) {
  try {
    return new Intl.ListFormat(current, { style: "long", type: "conjunction" }).format(items);
  } catch {
    return items.join(", ");
  }
}
