/** Embeds: what a URL shows as a card in a page (Open Graph tags of the page it serves). */
export { embedOfUrl, type LinkEmbed } from './embeds.js';
