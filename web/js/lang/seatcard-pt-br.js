// @ts-check
// Português (Brasil): the digital seat card on the player's phone (seatcard.js) and its scan at the
// table (seatcard_scan.js).

export const seatcardPtBr = {
  "seatcard.show": "Mostrar meu cartão de cadeira",
  "seatcard.hide": "Ocultar meu cartão de cadeira",
  "seatcard.loading": "Carregando o cartão de cadeira…",
  "seatcard.none": "Sem cadeira não há cartão de cadeira.",
  "seatcard.error": "Não foi possível carregar o cartão de cadeira: {error}",
  "seatcard.label": "Cartão de cadeira de {name}: mesa {table}, cadeira {seat}",
  "seatcard.where": "Mesa {table} · Cadeira {seat}",
  "seatcard.hint": "Mostre este código e seu documento ao dealer. Vale para uma leitura; depois de uma troca de cadeira, um novo cartão aparece aqui.",
  "seatcard.scan": "Ler um cartão de cadeira",
  "seatcard.again": "Ler outro cartão de cadeira",
  "seatcard.starting": "Abrindo a câmera…",
  "seatcard.scanning": "Aproxime o cartão de cadeira do jogador da câmera.",
  "seatcard.stop": "Fechar a câmera",
  "seatcard.close": "Pronto",
  "seatcard.no_camera": "Não foi possível abrir a câmera: permita-a para esta página ou confira o documento do jogador à mão.",
  "seatcard.ok": "Cartão de cadeira válido: mesa {table}, cadeira {seat}",
  "seatcard.document": "{type} terminado em {last}",
  "seatcard.no_document": "Nenhum documento registrado",
  "seatcard.compare": "Compare o nome e o documento com a identidade do jogador.",
  "seatcard.used": "Já lido às {time}: um cartão de cadeira vale para uma leitura.",
  "seatcard.by_hand": "Confira o documento do jogador à mão ou chame o floor.",
  "seatcard.other_table": "Este cartão é da mesa {table}, cadeira {seat}: o jogador vai para lá com seu stack.",
  "seatcard.void": "Este cartão é inválido: a cadeira que ele indica não é mais deste jogador.",
  "seatcard.sits_now": "Cadeira do jogador agora: mesa {table}, cadeira {seat}.",
  "seatcard.no_seat_now": "O jogador não tem cadeira agora.",
};
