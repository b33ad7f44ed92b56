"""Briefs and facts the offline builder's tests build pages from.

Import them as ``from tests.unit.sections.briefs import CASES, DIRECTED``.
"""

from __future__ import annotations

from charlotte.demo import SAMPLE_BRIEF, SAMPLE_FACTS

BAKERY = (
    "Crumb & Co is a neighbourhood bakery in Leeds baking sourdough and pastries every morning. "
    "The page should have a menu, about us, opening hours and contact.",
    {
        "name": "Crumb & Co",
        "phone": "0113 496 0321",
        "email": "hello@crumbandco.test",
        "address": "12 Kirkgate, Leeds LS1 6BY",
        "opening_hours": {"Tue-Fri": "08:00-16:00", "Sat": "09:00-14:00"},
        "menu": {"Sourdough loaf": "£4.50", "Cinnamon bun": "£2.80"},
    },
)
DENTIST = (
    "A landing page for Brightsmile Dental, a family dentist in Bristol. "
    "Sections: services, team, opening hours, contact.",
    {
        "phone": "+44 117 496 0123",
        "services": ["Check-ups", "Hygiene", "Whitening"],
        "team": {"Dr Asha Patel": "Principal dentist", "Tom Reed": "Hygienist"},
        "hours": "Mon-Fri 8:30-17:30",
    },
)
SAAS = (
    "Ledgerly is invoicing software for freelancers. Show features and pricing, and a call to action.",
    {
        "product": "Ledgerly",
        "features": {
            "Invoices": "Send invoices in seconds",
            "Reminders": "Automatic payment reminders",
        },
        "pricing": {"Starter": "$9/month", "Pro": "$29/month"},
        "email": "sales@ledgerly.test",
    },
)
# (brief, facts, business name, fact texts the page must show verbatim)
CASES = {
    "bakery": (
        *BAKERY,
        "Crumb & Co",
        ["0113 496 0321", "£4.50", "Tue-Fri\n08:00-16:00", "12 Kirkgate, Leeds LS1 6BY"],
    ),
    "dentist": (
        *DENTIST,
        "Brightsmile Dental",
        ["+44 117 496 0123", "Whitening", "Mon-Fri\n8:30-17:30"],
    ),
    "saas": (*SAAS, "Ledgerly", ["$9/month", "$29/month", "sales@ledgerly.test"]),
}


# Briefs that mix description with directions to the builder (sections, tone, calls to visit).
# (brief, facts, directions that must never be copy, offerings the brief names, contact links)
DIRECTED = {
    "sample": (
        SAMPLE_BRIEF,
        dict(SAMPLE_FACTS),
        ["tone", "Warm", "friendly", "invite", "Sections:"],
        ["Sourdough", "Pastel de nata", "Seasonal cakes"],
        {"tel:+351213456789": "+351 21 345 6789", "mailto:hello@rosasbakery.example": None},
    ),
    "dentist": (
        "A landing page for Brightsmile Dental, a family dentist in Bristol offering check-ups, "
        "hygiene visits and teeth whitening. Sections: services, team, contact. "
        "Calm, reassuring tone; encourage people to book a first visit.",
        {
            "phone": "+44 117 496 0123",
            "email": "hello@brightsmile.test",
            "address": "4 Park Row, Bristol BS1 5LJ",
            "team": {"Dr Asha Patel": "Principal dentist"},
        },
        ["tone", "Calm", "reassuring", "encourage", "first visit", "Sections:"],
        ["Check-ups", "Hygiene visits", "Teeth whitening"],
        {"tel:+441174960123": "+44 117 496 0123", "mailto:hello@brightsmile.test": None},
    ),
    "saas": (
        "Ledgerly is invoicing software for freelancers. It offers one-click invoices, automatic "
        "payment reminders and expense reports. Show features and pricing. Keep the tone "
        "confident and concise; invite visitors to start a free trial.",
        {
            "product": "Ledgerly",
            "pricing": {"Starter": "$9/month", "Pro": "$29/month"},
            "email": "sales@ledgerly.test",
            "phone": "+1 415 555 0134",
        },
        ["tone", "confident", "concise", "invite", "free trial", "Show features"],
        ["One-click invoices", "Automatic payment reminders", "Expense reports"],
        {"tel:+14155550134": "+1 415 555 0134", "mailto:sales@ledgerly.test": None},
    ),
}


# Three businesses as a new user tries them, facts as a host gives them (strings).
# (brief, facts, section roots the page must have, words the page must show)
PAGES = {
    "bike": (
        "Spoke & Chain Bike Repair is a bike repair workshop in Bristol fixing road bikes, "
        "mountain bikes, e-bikes and kids' bikes. Sections: services, prices, opening hours, "
        "contact. Friendly, no-nonsense tone.",
        {
            "name": "Spoke & Chain Bike Repair",
            "phone": "0117 496 0555",
            "email": "workshop@spokeandchain.test",
            "address": "7 Gloucester Road, Bristol BS7 8AA",
            "prices": "Puncture repair £12; Basic service £45; Full service £95; Brake bleed £25",
            "opening_hours": "Mon-Fri 08:30-18:00, Sat 09:00-16:00",
        },
        ["hero", "services", "pricing", "opening-hours", "contact"],
        ["Road bikes", "Mountain bikes", "E-bikes", "Kids' bikes", "Puncture repair", "£12"],
    ),
    "dentist": (
        "A landing page for Brightsmile Dental, a family dentist in Bristol offering check-ups, "
        "hygiene visits, teeth whitening and emergency appointments. Sections: treatments, "
        "opening hours, FAQ, contact. Calm, reassuring tone.",
        {
            "name": "Brightsmile Dental",
            "phone": "+44 117 496 0123",
            "email": "hello@brightsmile.test",
            "opening_hours": "Mon-Thu 8:30-17:30, Fri 8:30-15:00",
            "address": "4 Park Row, Bristol BS1 5LJ",
        },
        ["hero", "services", "opening-hours", "questions", "contact"],
        ["Treatments", "Check-ups", "Teeth whitening", "When are you open?", "4 Park Row"],
    ),
    "photographer": (
        "Lena Ward Photography is a wedding and portrait photographer in Edinburgh. "
        "Sections: gallery, about, pricing, contact. Elegant, minimal.",
        {
            "name": "Lena Ward Photography",
            "email": "studio@lenaward.test",
            "about": "I photograph weddings across Scotland, quietly and without posing.",
            "pricing": "Portrait session £180; Half-day wedding £950; Full-day wedding £1,600",
        },
        ["hero", "gallery", "about-us", "pricing", "contact"],
        ["Gallery", "quietly and without posing", "Full-day wedding", "£1,600"],
    ),
}

# Words no phone can fit at any readable size: the page must still not scroll sideways.
LONG = (
    "Supercalifragilisticexpialidocious Cleaning Cooperative is a cleaning firm in Aberystwyth "
    "providing deep-cleaning, end-of-tenancy-cleaning and carpet shampooing. Sections: "
    "services, prices, team, FAQ, location, contact, call to action.",
    {
        "name": "Supercalifragilisticexpialidocious Cleaning Cooperative",
        "email": "enquiries.and.bookings@supercalifragilisticexpialidocious-cleaning.test",
        "phone": "+44 1970 555 0199",
        "address": "Unit 14, Glanyrafon Industrial Estate, Llanbadarn Fawr, Aberystwyth SY23 3JQ",
        "prices": "Deep-cleaning-of-kitchens-and-bathrooms £120; End-of-tenancy £250",
        "team": "Angharad Llewellyn-Pritchard: founder; Dafydd: supervisor",
        "signature": "Pneumonoultramicroscopicsilicovolcanoconiosis shine",
    },
    [
        "hero",
        "services",
        "pricing",
        "team",
        "questions",
        "find-us",
        "call-to-action",
        "contact",
    ],
    [
        "Send an e-mail",
        "Angharad Llewellyn-Pritchard",
        "£120",
        "Pneumonoultramicroscopicsilicovolcanoconiosis shine",
    ],
)
