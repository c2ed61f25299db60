// Nepal's 77 districts in Nepali, keyed by the English name the API stores and returns
// (drizzle/0008_seed_shipping_districts.sql). Spellings are the official ones of the
// Constitution of Nepal (Schedule 4) as the government writes them, including the two split
// districts' full names. Pure data and one function, so test/console/districts.test.ts checks it in Node.
import type { Language } from './format';

export const DISTRICTS_NE: Readonly<Record<string, string>> = {
  // Koshi
  Bhojpur: 'भोजपुर',
  Dhankuta: 'धनकुटा',
  Ilam: 'इलाम',
  Jhapa: 'झापा',
  Khotang: 'खोटाङ',
  Morang: 'मोरङ',
  Okhaldhunga: 'ओखलढुङ्गा',
  Panchthar: 'पाँचथर',
  Sankhuwasabha: 'संखुवासभा',
  Solukhumbu: 'सोलुखुम्बु',
  Sunsari: 'सुनसरी',
  Taplejung: 'ताप्लेजुङ',
  Terhathum: 'तेह्रथुम',
  Udayapur: 'उदयपुर',
  // Madhesh
  Bara: 'बारा',
  Dhanusha: 'धनुषा',
  Mahottari: 'महोत्तरी',
  Parsa: 'पर्सा',
  Rautahat: 'रौतहट',
  Saptari: 'सप्तरी',
  Sarlahi: 'सर्लाही',
  Siraha: 'सिराहा',
  // Bagmati
  Bhaktapur: 'भक्तपुर',
  Chitwan: 'चितवन',
  Dhading: 'धादिङ',
  Dolakha: 'दोलखा',
  Kathmandu: 'काठमाडौं',
  Kavrepalanchok: 'काभ्रेपलाञ्चोक',
  Lalitpur: 'ललितपुर',
  Makwanpur: 'मकवानपुर',
  Nuwakot: 'नुवाकोट',
  Ramechhap: 'रामेछाप',
  Rasuwa: 'रसुवा',
  Sindhuli: 'सिन्धुली',
  Sindhupalchok: 'सिन्धुपाल्चोक',
  // Gandaki
  Baglung: 'बागलुङ',
  Gorkha: 'गोरखा',
  Kaski: 'कास्की',
  Lamjung: 'लमजुङ',
  Manang: 'मनाङ',
  Mustang: 'मुस्ताङ',
  Myagdi: 'म्याग्दी',
  'Nawalparasi East': 'नवलपरासी (बर्दघाट सुस्ता पूर्व)',
  Parbat: 'पर्वत',
  Syangja: 'स्याङ्जा',
  Tanahun: 'तनहुँ',
  // Lumbini
  Arghakhanchi: 'अर्घाखाँची',
  Banke: 'बाँके',
  Bardiya: 'बर्दिया',
  Dang: 'दाङ',
  Gulmi: 'गुल्मी',
  Kapilvastu: 'कपिलवस्तु',
  'Nawalparasi West': 'नवलपरासी (बर्दघाट सुस्ता पश्चिम)',
  Palpa: 'पाल्पा',
  Pyuthan: 'प्यूठान',
  Rolpa: 'रोल्पा',
  'Rukum East': 'रुकुम (पूर्वी भाग)',
  Rupandehi: 'रुपन्देही',
  // Karnali
  Dailekh: 'दैलेख',
  Dolpa: 'डोल्पा',
  Humla: 'हुम्ला',
  Jajarkot: 'जाजरकोट',
  Jumla: 'जुम्ला',
  Kalikot: 'कालिकोट',
  Mugu: 'मुगु',
  'Rukum West': 'रुकुम (पश्चिम भाग)',
  Salyan: 'सल्यान',
  Surkhet: 'सुर्खेत',
  // Sudurpashchim
  Achham: 'अछाम',
  Baitadi: 'बैतडी',
  Bajhang: 'बझाङ',
  Bajura: 'बाजुरा',
  Dadeldhura: 'डडेलधुरा',
  Darchula: 'दार्चुला',
  Doti: 'डोटी',
  Kailali: 'कैलाली',
  Kanchanpur: 'कञ्चनपुर',
};

/**
 * A district's name in `language`, from the English name the API gives (matched without regard
 * to case or surrounding spaces, as staff may have typed it at the counter). A name not on the
 * list shows as given.
 */
export function districtName(name: string, language: Language): string {
  if (language !== 'ne') return name;
  return DISTRICTS_NE[name] ?? DISTRICTS_BY_KEY.get(name.trim().toLowerCase()) ?? name;
}

const DISTRICTS_BY_KEY = new Map(
  Object.entries(DISTRICTS_NE).map(([english, nepali]) => [english.toLowerCase(), nepali]),
);
