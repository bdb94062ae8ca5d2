"""Words naming places, as data for :mod:`memory.analysis.slot_patterns`: countries,
regions and large cities, and the last words of venues' names. Extend freely.
"""

from __future__ import annotations

#: Countries, regions and large cities, which name a place without a preposition ("Norway
#: goes first, not Sweden", "Ireland first"). Data, not grammar: extend freely.
PLACE_NAMES: frozenset[str] = frozenset("""
Afghanistan Albania Algeria Andorra Angola Argentina Armenia Australia Austria Azerbaijan
Bahrain Bangladesh Belarus Belgium Belize Benin Bhutan Bolivia Bosnia Botswana Brazil Brunei
Bulgaria Burundi Cambodia Cameroon Canada Chile China Colombia Croatia Cuba Cyprus Czechia
Denmark Djibouti Ecuador Egypt Estonia Eswatini Ethiopia Fiji Finland France Gabon Gambia
Germany Ghana Greece Guatemala Guinea Guyana Haiti Honduras Hungary Iceland India Indonesia
Iran Iraq Ireland Israel Italy Jamaica Japan Kazakhstan Kenya Kosovo Kuwait Kyrgyzstan Laos
Latvia Lebanon Lesotho Liberia Libya Liechtenstein Lithuania Luxembourg Madagascar Malawi
Malaysia Maldives Mali Malta Mauritania Mauritius Mexico Moldova Monaco Mongolia Montenegro
Morocco Mozambique Myanmar Namibia Nepal Netherlands Nicaragua Niger Nigeria Norway Oman
Pakistan Panama Paraguay Peru Philippines Poland Portugal Qatar Romania Russia Rwanda Samoa
Senegal Serbia Seychelles Singapore Slovakia Slovenia Somalia Spain Sudan Suriname Sweden
Switzerland Syria Taiwan Tajikistan Tanzania Thailand Togo Tunisia Turkey Turkmenistan Uganda
Ukraine Uruguay Uzbekistan Vanuatu Venezuela Vietnam Yemen Zambia Zimbabwe UK USA US UAE EU
APAC EMEA LATAM Scandinavia Europe Asia Africa Oceania Benelux Nordics DACH Scotland Wales
England Catalonia Bavaria Quebec Ontario California Texas Florida Oregon
London Paris Berlin Madrid Lisbon Porto Rome Milan Dublin Amsterdam Rotterdam Brussels
Copenhagen Stockholm Oslo Helsinki Reykjavik Vienna Zurich Geneva Munich Hamburg Frankfurt
Prague Warsaw Krakow Budapest Bucharest Athens Istanbul Cairo Nairobi Lagos Johannesburg
Dubai Mumbai Bangalore Bengaluru Delhi Singapore Tokyo Osaka Seoul Beijing Shanghai
Shenzhen Sydney Melbourne Auckland Toronto Montreal Vancouver Boston Chicago Seattle
Denver Atlanta Miami Manchester Birmingham Leeds Glasgow Edinburgh Bristol Cardiff Belfast
Barcelona Valencia Seville Lyon Marseille Toulouse Bordeaux Gothenburg Malmo Tallinn Riga
Vilnius Kyiv
""".split())


#: The capitalised last word of a venue's name ("the Crab House", "Ocean Room", "Hillside
#: Leisure Centre"). Data: extend freely.
VENUE_HEADS: tuple[str, ...] = (
    "House", "Room", "Rooms", "Park", "Hall", "Arms", "Inn", "Centre", "Center", "Café", "Cafe",
    "Bar", "Pub", "Hotel", "Club", "Tavern", "Lodge", "Barn", "Gardens", "Garden", "Bistro",
    "Kitchen", "Lounge", "Studios", "Theatre", "Theater", "Cinema", "Church", "Chapel",
    "Library", "Stadium", "Arena", "Fields", "Green", "Common", "Quay", "Marina", "Beach",
    "Station", "Academy", "Brewery", "Taproom", "Works",
)
