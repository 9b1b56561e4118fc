/** Writing a page together: a shared document per page of a change request, saved to its branch by the server. */
export { closePageRooms, joinPageRoom, messageTypes, roomLimits, roomTiming, type PageConnection, type PageRoom, type RoomNotice } from './pageRoom.js';
export { collabTicket, readCollabTicket, type CollabTicket } from './tickets.js';
